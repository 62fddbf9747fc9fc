-- The plugin's `locale` option and the environment's locale, in headless Neovim.
-- Environment: MFLS_PLUGIN, MFLS_COURSE, MFLS_SERVER_CMD (JSON list), MFLS_LOCALE (the
-- option, or "" for none), MFLS_EXPECT (how the message should start), MFLS_RESULTS.
local kit = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/kit/checks.lua")
local runner = kit.new()
local record = runner.record

local function main()
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

kit.main(runner, main)
