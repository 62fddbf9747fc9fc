-- The check runner every headless Neovim driver of tests/editors uses (load it with
-- `dofile(<the driver's folder> .. "/kit/checks.lua")`): a results table whose `checks`
-- the Python side reads (editor_harness.read_checks), steps run under pcall (an uncaught
-- error would hang headless Neovim), the results written to MFLS_RESULTS, the LSP clients
-- stopped and Neovim quit (`cquit 3` when the results could not be written).
local M = {}

M.wait_ms = tonumber(os.getenv("MFLS_WAIT_MS") or "20000")

-- The Neovim version as "major.minor".
function M.nvim_version()
  return tostring(vim.version().major) .. "." .. tostring(vim.version().minor)
end

-- A runner over `results` (a table; `checks` is added): runner.results, runner.record,
-- runner.course (MFLS_COURSE) and runner.open(relative) of a file of that course. The
-- plugin (MFLS_PLUGIN, when given) goes first on the runtimepath.
function M.new(results)
  results = results or {}
  results.checks = results.checks or {}
  local runner = { results = results, course = os.getenv("MFLS_COURSE") }
  function runner.record(name, ok, detail)
    table.insert(results.checks, { name = name, ok = ok and true or false, detail = detail or "" })
  end
  function runner.open(relative)
    return M.open(runner.course, relative)
  end
  if os.getenv("MFLS_PLUGIN") then
    vim.opt.runtimepath:prepend(os.getenv("MFLS_PLUGIN"))
  end
  return runner
end

-- Each named check of `checks`, in `order`, under pcall: an error is recorded as the
-- check's failure. When the first check fails, the others are recorded as not run
-- (`first_failed` says why).
function M.run_checks(runner, checks, order, first_failed)
  for index, name in ipairs(order) do
    local ok, err = pcall(checks[name])
    if not ok then
      runner.record(name, false, "error: " .. tostring(err))
      if index == 1 and first_failed then
        for _, rest in ipairs(order) do
          if rest ~= name then
            runner.record(rest, false, "not run: " .. first_failed)
          end
        end
        return
      end
    end
  end
end

local function write(results)
  local file = io.open(os.getenv("MFLS_RESULTS"), "w")
  file:write(vim.fn.json_encode(results))
  file:close()
end

-- Write the results, stop every LSP client (waiting up to 3 s) and quit.
function M.finish(runner)
  local written = pcall(write, runner.results)
  pcall(function()
    for _, client in ipairs(vim.lsp.get_active_clients()) do
      client.stop()
    end
    vim.wait(3000, function()
      return #vim.lsp.get_active_clients() == 0
    end, 50)
  end)
  vim.cmd(written and "qall!" or "cquit 3")
end

-- `main()` under pcall, its error recorded as the check "main" (or by `on_error`), then
-- finish.
function M.main(runner, main, on_error)
  local ok, err = pcall(main)
  if not ok then
    if on_error then
      on_error(err)
    else
      runner.record("main", false, "error: " .. tostring(err))
    end
  end
  M.finish(runner)
end

-- Open `relative` under `course` and set its filetype (with -u NONE there is no filetype
-- detection; setting it fires the plugin's FileType hook). The buffer number.
function M.open(course, relative)
  vim.cmd("edit " .. vim.fn.fnameescape(course .. "/" .. relative))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = "markdown"
  return bufnr
end

-- The plugin's mfls client of `bufnr`, once initialized (an error if it exits or does
-- not initialize within wait_ms). attach() is idempotent and names the client.
function M.wait_for_client(bufnr, wait_ms)
  wait_ms = wait_ms or M.wait_ms
  local client_id = require("mfls").attach(bufnr)
  local client
  vim.wait(wait_ms, function()
    client = vim.lsp.get_client_by_id(client_id)
    return client == nil or client.initialized == true
  end, 50)
  if client == nil then
    error("the mfls server exited (see lsp.log)")
  end
  if not client.initialized then
    error("mfls did not initialize within " .. wait_ms .. " ms")
  end
  return client
end

return M
