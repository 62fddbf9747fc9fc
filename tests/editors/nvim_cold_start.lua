-- Cold start: Neovim, with the mfls plugin, opens lessons of a course the server has never
-- indexed, and records every set of diagnostics it shows for each (on DiagnosticChanged),
-- so that the test compares the first one shown with `mfls check`'s problems.
-- Environment: MFLS_PLUGIN (the plugin folder), MFLS_SERVER_CMD (JSON list), MFLS_OPEN
-- (JSON list of the lesson files to open, in order), MFLS_RESULTS (where to write JSON),
-- MFLS_WAIT_MS (the bound for each wait). Every step runs under pcall: an uncaught error
-- would hang headless Neovim.

local kit = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/kit/checks.lua")
local runner = kit.new({ nvim = kit.nvim_version(), shown = {}, errors = {} })
local results = runner.results
local wait_ms = kit.wait_ms
local opened = {} -- bufnr -> file name
local last = {} -- bufnr -> the last set recorded, encoded

-- What the buffer shows now: 1-based line, 1-based code point column, severity, code, message.
local function shown(bufnr)
  local items = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local line = vim.api.nvim_buf_get_lines(bufnr, d.lnum, d.lnum + 1, false)[1] or ""
    local column = vim.str_utfindex(line, math.min(d.col, #line)) + 1
    local code = d.code
    if code == nil and d.user_data and d.user_data.lsp then
      code = d.user_data.lsp.code
    end
    table.insert(items, {
      line = d.lnum + 1, column = column, severity = d.severity, code = code, message = d.message,
    })
  end
  return items
end

local function record_changes()
  for bufnr, name in pairs(opened) do
    if vim.api.nvim_buf_is_valid(bufnr) then
      local now = shown(bufnr)
      local encoded = vim.fn.json_encode(now)
      if encoded ~= (last[bufnr] or "[]") then
        last[bufnr] = encoded
        results.shown[name] = results.shown[name] or {}
        table.insert(results.shown[name], now)
      end
    end
  end
end

local function main()
  vim.opt.swapfile = false
  vim.opt.hidden = true
  vim.api.nvim_create_autocmd("DiagnosticChanged", { callback = record_changes })
  require("mfls").setup({ cmd = vim.fn.json_decode(os.getenv("MFLS_SERVER_CMD")) })
  local files = vim.fn.json_decode(os.getenv("MFLS_OPEN"))
  -- One after the other, as a person opens them: Neovim 0.11 pulls the diagnostics of the
  -- buffer shown, the first one before the server has indexed anything.
  for _, file in ipairs(files) do
    vim.cmd("edit " .. vim.fn.fnameescape(file))
    local bufnr = vim.api.nvim_get_current_buf()
    local name = vim.api.nvim_buf_get_name(bufnr)
    opened[bufnr] = name
    -- With -u NONE there is no filetype detection: set it, which fires the plugin's hook.
    vim.bo[bufnr].filetype = "markdown"
    local seen = vim.wait(wait_ms, function()
      return results.shown[name] ~= nil
    end, 20)
    if not seen then
      table.insert(results.errors, name .. " showed no diagnostics within " .. wait_ms .. " ms")
    end
  end
  -- Long enough for the indexing to end and a push client's corrected publish to arrive.
  vim.wait(2000, function()
    return false
  end, 50)
  record_changes()
end

kit.main(runner, main, function(err)
  table.insert(results.errors, tostring(err))
end)
