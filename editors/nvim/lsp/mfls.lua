-- mfls for Neovim 0.11 and later: with this plugin on the runtimepath,
-- `vim.lsp.enable("mfls")` is the whole configuration (see :help mfls-enable).
-- Neovim merges this table with what `vim.lsp.config("mfls", {...})` sets.
return require("mfls").lsp_config()
