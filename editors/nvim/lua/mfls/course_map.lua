-- The course map and the course key table, from the server's mfls.courseMap and
-- mfls.courseKeys commands (workspace/executeCommand with the buffer's URI).
--   :MflsKeys        the key table in a scratch buffer
--   :MflsMap         the map as an HTML file in the system browser (xdg-open / open)
--   :MflsMap json    the key table as JSON (one key per line) in a scratch buffer
-- The program that opens the HTML file is vim.g.mfls_map_opener (a list: the file's path is
-- appended), by default `open` on macOS and `xdg-open` elsewhere.
local M = {}

local clients = require("mfls.clients")

local function mfls_client(bufnr)
  return clients.attached(bufnr) or clients.any()
end

local function attached(bufnr)
  return clients.attached(bufnr) ~= nil
end

-- The lesson buffer entered last among those mfls is attached to: the commands ask about
-- its course when run from another window (the key table's, a help page, an empty one).
local last_lesson = nil

--- Records `bufnr` (attached to mfls) as the buffer the commands use from other windows.
function M.remember(bufnr)
  last_lesson = bufnr
end

--- The buffer whose course a command shows: `bufnr` itself when mfls is attached to it,
--- else the lesson buffer entered last (nil when no course is open).
local function course_buffer(bufnr)
  if attached(bufnr) then
    return bufnr
  end
  if last_lesson ~= nil and vim.api.nvim_buf_is_valid(last_lesson) and attached(last_lesson) then
    return last_lesson
  end
  for _, candidate in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(candidate) and attached(candidate) then
      return candidate
    end
  end
  return nil
end

local function execute(bufnr, command, callback)
  bufnr = course_buffer(bufnr)
  local client = bufnr and mfls_client(bufnr)
  if not client then
    vim.notify("mfls: no course is open: open a lesson of a course first", vim.log.levels.WARN)
    return
  end
  local params = { command = command, arguments = { vim.uri_from_bufnr(bufnr) } }
  client.request("workspace/executeCommand", params, function(err, result)
    if err then
      vim.notify("mfls: " .. tostring(err.message or err), vim.log.levels.WARN)
      return
    end
    callback(result)
  end, bufnr)
end

--- A scratch buffer named `name` (reused), holding `lines`, in a split below.
function M.scratch(name, lines, filetype)
  local bufnr = vim.fn.bufnr(name)
  if bufnr == -1 then
    bufnr = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(bufnr, name)
  end
  vim.bo[bufnr].buftype = "nofile"
  vim.bo[bufnr].bufhidden = "hide"
  vim.bo[bufnr].swapfile = false
  vim.bo[bufnr].modifiable = true
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].modifiable = false
  if filetype then
    vim.bo[bufnr].filetype = filetype
  end
  local window = vim.fn.bufwinid(bufnr)
  if window == -1 then
    vim.cmd("botright split")
    vim.api.nvim_win_set_buf(0, bufnr)
  else
    vim.api.nvim_set_current_win(window)
  end
  return bufnr
end

local function one_line(text)
  return (tostring(text):gsub("[%c]+", " "))
end

local function pad(text, width)
  local shown = vim.fn.strdisplaywidth(text)
  if shown >= width then
    return text
  end
  return text .. string.rep(" ", width - shown)
end

--- The header lines of an AI-Shifu course folder against its .shifu-sync.json: the
--- lessons changed since the last pull, and those whose recorded file is gone.
function M.since_last_pull_lines(since)
  if type(since) ~= "table" then
    return {}
  end
  local function files(list)
    local names = {}
    for _, lesson in ipairs(list) do
      table.insert(names, one_line(lesson.file))
    end
    return table.concat(names, ", ")
  end
  local lines = {}
  if #since.changed > 0 then
    table.insert(lines, "Changed since last pull: " .. files(since.changed))
  else
    table.insert(lines, "No lesson changed since last pull")
  end
  if #since.gone > 0 then
    table.insert(lines, "Gone since last pull: " .. files(since.gone) .. " (" .. since.goneFate .. ")")
  end
  return lines
end

--- The lines of the key table: one row per key in course order.
function M.key_lines(answer)
  local rows = {}
  local width = 8
  for _, row in ipairs(answer.rows) do
    local asked = {}
    for _, place in ipairs(row.asked) do
      table.insert(asked, one_line(place.lesson) .. ":" .. place.line)
    end
    local problems = {}
    for _, problem in ipairs(row.problems) do
      local text = problem.code
      if problem.count > 1 then
        text = text .. " x" .. problem.count
      end
      if problem.suggestion then
        text = text .. " (did you mean \"" .. one_line(problem.suggestion) .. "\"?)"
      end
      table.insert(problems, text)
    end
    local key = one_line(row.key) .. (row.group == "system" and " (host)" or "")
    width = math.min(48, math.max(width, vim.fn.strdisplaywidth(key)))
    table.insert(rows, {
      key,
      #asked > 0 and table.concat(asked, ", ") or "-",
      row.reads .. " in " .. row.readLessons,
      #problems > 0 and table.concat(problems, ", ") or "-",
    })
  end
  local lines = {
    "Course keys: " .. one_line(answer.course) .. " (" .. one_line(answer.figures.summary) .. ")",
  }
  for _, line in ipairs(M.since_last_pull_lines(answer.sinceLastPull)) do
    table.insert(lines, line)
  end
  table.insert(lines, "")
  table.insert(lines, pad("question", width) .. " | asked in | reads in lessons | problems")
  for _, row in ipairs(rows) do
    table.insert(lines, pad(row[1], width) .. " | " .. row[2] .. " | " .. row[3] .. " | " .. row[4])
  end
  return lines
end

function M.keys(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  execute(bufnr, "mfls.courseKeys", function(answer)
    M.scratch("mfls://course-keys", M.key_lines(answer))
  end)
end

local function opener()
  if vim.g.mfls_map_opener then
    return vim.g.mfls_map_opener
  end
  if vim.fn.has("mac") == 1 then
    return { "open" }
  end
  return { "xdg-open" }
end

function M.map(bufnr, form)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if form == "json" then
    execute(bufnr, "mfls.courseKeys", function(answer)
      local lines = {}
      for _, row in ipairs(answer.rows) do
        table.insert(lines, vim.fn.json_encode(row))
      end
      M.scratch("mfls://course-keys.json", lines, "json")
    end)
    return
  end
  execute(bufnr, "mfls.courseMap", function(answer)
    local path = vim.fn.tempname() .. "-course-map.html"
    local file = io.open(path, "w")
    if file == nil then
      vim.notify("mfls: cannot write " .. path, vim.log.levels.ERROR)
      return
    end
    file:write(answer.html)
    file:close()
    local command = vim.deepcopy(opener())
    table.insert(command, path)
    local job = vim.fn.jobstart(command, { detach = true })
    if job <= 0 then
      vim.notify("mfls: the map is in " .. path .. " (could not run " .. command[1] .. ")",
        vim.log.levels.WARN)
    else
      vim.notify("mfls: course map " .. path)
    end
    M.last_map = path
  end)
end

--- Defines :MflsMap [html|json] and :MflsKeys.
function M.commands()
  vim.api.nvim_create_user_command("MflsMap", function(args)
    M.map(0, args.args ~= "" and args.args or "html")
  end, {
    nargs = "?",
    complete = function()
      return { "html", "json" }
    end,
    desc = "Show the course map (html: in the browser; json: in a scratch buffer)",
  })
  vim.api.nvim_create_user_command("MflsKeys", function()
    M.keys(0)
  end, { desc = "Show the course key table in a scratch buffer" })
end

return M
