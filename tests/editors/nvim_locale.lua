-- The plugin's `locale` option and the environment's locale, in headless Neovim.
-- Environment: MFLS_PLUGIN, MFLS_COURSE, MFLS_SERVER_CMD (JSON list), MFLS_LOCALE (the
-- option, or "" for none), MFLS_EXPECT (how the message should start), MFLS_RESULTS.
local results = { checks = {} }
local function record(name, ok, detail)
  table.insert(results.checks, { name = name, ok = ok and true or false, detail = detail or "" })
end

local function main()
  vim.opt.runtimepath:prepend(os.getenv("MFLS_PLUGIN"))
  local option = os.getenv("MFLS_LOCALE")
  require("mfls").setup({
    cmd = vim.fn.json_decode(os.getenv("MFLS_SERVER_CMD")),
    locale = option ~= "" and option or nil,
  })
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("MFLS_COURSE") .. "/a.md"))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = "markdown"
  -- The settings arrive after `initialize`: wait for the message to start as expected.
  local start = os.getenv("MFLS_EXPECT")
  local message = "none within 20 s"
  local settled = vim.wait(20000, function()
    local found = vim.diagnostic.get(bufnr)
    message = #found > 0 and found[1].message or message
    return message:sub(1, #start) == start
  end, 50)
  record("diagnostic", settled, message)
end

local ok, err = pcall(main)
if not ok then
  record("main", false, tostring(err))
end
local file = io.open(os.getenv("MFLS_RESULTS"), "w")
file:write(vim.fn.json_encode(results))
file:close()
vim.cmd("qall!")
