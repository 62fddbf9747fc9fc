-- nvim-lspconfig's lsp/mfls.lua as proposed there (packaging/nvim-lspconfig), in headless
-- Neovim 0.11 without the plugin: loaded with dofile, given to vim.lsp.config and enabled,
-- then a lesson opened. Environment: MFLS_LSPCONFIG, MFLS_COURSE, MFLS_RESULTS.
local kit = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/kit/checks.lua")
local runner = kit.new({ diagnostics = {} })
local results, record = runner.results, runner.record

local function main()
  local config = dofile(os.getenv("MFLS_LSPCONFIG"))
  record("fields", vim.deep_equal(config.cmd, { "mfls" })
    and vim.deep_equal(config.filetypes, { "markdown", "markdownflow" })
    and type(config.root_dir) == "function", vim.inspect(config))
  vim.lsp.config("mfls", config)
  vim.lsp.enable("mfls")
  local course = os.getenv("MFLS_COURSE")
  vim.cmd("edit " .. vim.fn.fnameescape(course .. "/lessons/03-practice.md"))
  local client = nil
  local attached = vim.wait(30000, function()
    client = vim.lsp.get_clients({ bufnr = 0, name = "mfls" })[1]
    return client ~= nil and client.initialized and #vim.diagnostic.get(0) > 0
  end, 50)
  record("started", attached, client and client.name or "no client")
  record("root", client ~= nil and vim.fn.resolve(client.root_dir) == vim.fn.resolve(course),
    client and tostring(client.root_dir) or "")
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(results.diagnostics, { line = d.lnum + 1, column = d.col + 1, code = d.code })
  end
end

kit.main(runner, main)
