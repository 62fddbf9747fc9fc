-- Checks require("mfls.root") and the *.mdflow filetype in headless Neovim.
-- Environment: MFLS_PLUGIN, MFLS_TREE (a scratch folder laid out by the test), MFLS_RESULTS.
local kit = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/kit/checks.lua")
local runner = kit.new()
local record = runner.record

local function main()
  local tree = os.getenv("MFLS_TREE")
  local root = require("mfls.root")
  local markers = require("mfls").config.root_markers
  local cases = {
    { "course file wins over .git", "repo/course/lessons/a.md", "repo/course" },
    { ".git when there is no course file", "repo/notes/b.md", "repo" },
    { "the file's folder otherwise", "loose/c.md", "loose" },
    { "an AI-Shifu course folder wins over .git", "repo/shifu/lessons/l.md", "repo/shifu" },
    { ".shifu-sync.json beside lessons/ too", "repo/synced/lessons/l.md", "repo/synced" },
    { "structure.json without lessons/ is no course", "repo/loose-json/notes/n.md", "repo" },
    { "the nearer of a course file and a course folder", "repo/course/inner/lessons/i.md",
      "repo/course/inner" },
  }
  -- lsp/mfls.lua, as Neovim 0.11 loads it for vim.lsp.enable("mfls"): the same roots.
  local enabled = dofile(os.getenv("MFLS_PLUGIN") .. "/lsp/mfls.lua")
  for _, case in ipairs(cases) do
    local name, file, expected = case[1], tree .. "/" .. case[2], tree .. "/" .. case[3]
    local got = root.for_file(file, markers)
    record(name, vim.fn.resolve(got) == vim.fn.resolve(expected), got)
    local from_enabled = nil
    enabled.root_dir(vim.fn.bufadd(file), function(dir)
      from_enabled = dir
    end)
    record(name .. " (lsp/mfls.lua)", from_enabled ~= nil
      and vim.fn.resolve(from_enabled) == vim.fn.resolve(expected), tostring(from_enabled))
  end
  -- nvim-lspconfig's lsp/mfls.lua, proposed there (packaging/), uses Neovim 0.10's vim.fs.
  if vim.fn.has("nvim-0.11") == 1 then
    local registry = dofile(os.getenv("MFLS_LSPCONFIG"))
    for _, case in ipairs(cases) do
      local name, file, expected = case[1], tree .. "/" .. case[2], tree .. "/" .. case[3]
      local got = nil
      registry.root_dir(vim.fn.bufadd(file), function(dir)
        got = dir
      end)
      record(name .. " (nvim-lspconfig)", got ~= nil
        and vim.fn.resolve(got) == vim.fn.resolve(expected), tostring(got))
    end
  end
  record("lsp/mfls.lua's server and filetypes", vim.deep_equal(enabled.cmd, { "mfls" })
    and vim.deep_equal(enabled.filetypes, { "markdown", "markdownflow" })
    and type(enabled.on_attach) == "function", vim.inspect(enabled.cmd))
  vim.cmd("filetype on")
  vim.cmd("edit " .. vim.fn.fnameescape(tree .. "/loose/d.mdflow"))
  record("mdflow filetype", vim.bo.filetype == "markdownflow", vim.bo.filetype)
end

kit.main(runner, main)
