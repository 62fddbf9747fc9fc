-- Checks require("mfls.root") and the *.mdflow filetype in headless Neovim.
-- Environment: MFLS_PLUGIN, MFLS_TREE (a scratch folder laid out by the test), MFLS_RESULTS.
local results = { checks = {} }
local function record(name, ok, detail)
  table.insert(results.checks, { name = name, ok = ok and true or false, detail = detail or "" })
end

local function main()
  vim.opt.runtimepath:prepend(os.getenv("MFLS_PLUGIN"))
  local tree = os.getenv("MFLS_TREE")
  local root = require("mfls.root")
  local markers = require("mfls").config.root_markers
  local cases = {
    { "course file wins over .git", "repo/course/lessons/a.md", "repo/course" },
    { ".git when there is no course file", "repo/notes/b.md", "repo" },
    { "the file's folder otherwise", "loose/c.md", "loose" },
  }
  for _, case in ipairs(cases) do
    local name, file, expected = case[1], tree .. "/" .. case[2], tree .. "/" .. case[3]
    local got = root.for_file(file, markers)
    record(name, vim.fn.resolve(got) == vim.fn.resolve(expected), got)
  end
  vim.cmd("filetype on")
  vim.cmd("edit " .. vim.fn.fnameescape(tree .. "/loose/d.mdflow"))
  record("mdflow filetype", vim.bo.filetype == "markdownflow", vim.bo.filetype)
end

local ok, err = pcall(main)
if not ok then
  record("main", false, tostring(err))
end
local file = io.open(os.getenv("MFLS_RESULTS"), "w")
file:write(vim.fn.json_encode(results))
file:close()
vim.cmd("qall!")
