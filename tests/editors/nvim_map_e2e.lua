-- :MflsKeys and :MflsMap of the mfls Neovim plugin against the real server, headless.
-- Environment: MFLS_PLUGIN, MFLS_COURSE, MFLS_SERVER_CMD (JSON list), MFLS_RESULTS, MFLS_WAIT_MS,
-- MFLS_OPENED (where the test's map opener copies the HTML file it is given).
-- Every step runs under pcall: an uncaught error would hang headless Neovim.

local kit = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/kit/checks.lua")
local runner = kit.new()
local results, record, open = runner.results, runner.record, runner.open
local wait_ms = kit.wait_ms

local function wait_for_client(bufnr)
  local client = kit.wait_for_client(bufnr, wait_ms)
  -- The course is indexed when the lesson's typo is a near miss of a key another lesson binds.
  vim.wait(wait_ms, function()
    for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
      if diagnostic.code == "near-miss" then
        return true
      end
    end
    return false
  end, 50)
  return client
end

local function buffer_lines(name)
  local found
  vim.wait(wait_ms, function()
    local bufnr = vim.fn.bufnr(name)
    if bufnr ~= -1 and vim.api.nvim_buf_line_count(bufnr) > 1 then
      found = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
      return true
    end
    return false
  end, 50)
  return found
end

local checks = {}

function checks.keys()
  local bufnr = open("lessons/03-practice.md")
  wait_for_client(bufnr)
  vim.cmd("MflsKeys")
  local lines = buffer_lines("mfls://course-keys")
  if lines == nil then
    error("no mfls://course-keys buffer")
  end
  local scratch = vim.fn.bufnr("mfls://course-keys")
  results.keys = lines
  results.keys_buftype = vim.bo[scratch].buftype
  results.keys_current = vim.api.nvim_get_current_buf() == scratch
  record("keys", true, table.concat(lines, "\n"))
end

function checks.json()
  vim.cmd("wincmd p")
  vim.cmd("MflsMap json")
  local lines = buffer_lines("mfls://course-keys.json")
  if lines == nil then
    error("no mfls://course-keys.json buffer")
  end
  results.json = lines
  record("json", true, tostring(#lines) .. " lines")
end

function checks.html()
  vim.cmd("wincmd p")
  vim.g.mfls_map_opener = { "sh", "-c", 'cp "$1" "$MFLS_OPENED"', "sh" }
  vim.cmd("MflsMap")
  local opened = os.getenv("MFLS_OPENED")
  local ok = vim.wait(wait_ms, function()
    return vim.fn.filereadable(opened) == 1 and vim.fn.getfsize(opened) > 1000
  end, 50)
  record("html", ok, tostring(require("mfls.course_map").last_map))
end

function checks.sync()
  -- An AI-Shifu course folder: the header lists what changed since the last pull.
  local bufnr = open("ai-course/lessons/lesson-02.md")
  require("mfls").attach(bufnr)
  local lines
  vim.wait(wait_ms, function()
    vim.cmd("MflsKeys")
    vim.wait(500, function()
      return false
    end, 50)
    local scratch = vim.fn.bufnr("mfls://course-keys")
    if scratch == -1 then
      return false
    end
    lines = vim.api.nvim_buf_get_lines(scratch, 0, -1, false)
    vim.cmd("wincmd p")
    return lines[2] ~= nil and lines[2]:find("^Changed since last pull") ~= nil
  end, 100)
  results.sync = lines
  record("sync", lines ~= nil, table.concat(lines or {}, "\n"))
end

local function main()
  vim.opt.swapfile = false
  vim.opt.hidden = true
  require("mfls").setup({ cmd = vim.fn.json_decode(os.getenv("MFLS_SERVER_CMD")) })
  kit.run_checks(runner, checks, { "keys", "json", "html", "sync" })
end

kit.main(runner, main)
