-- Finding the course root of a file: the nearest mfcourse.toml, else .git, else the file's folder.
local M = {}

local uv = vim.loop

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function parent(dir)
  local up = vim.fn.fnamemodify(dir, ":h")
  if up == dir then
    return nil
  end
  return up
end

--- The nearest ancestor of `start_dir` (itself included) holding `marker`, or nil.
function M.find_up(start_dir, marker)
  local dir = start_dir
  while dir do
    if exists(dir .. "/" .. marker) then
      return dir
    end
    dir = parent(dir)
  end
  return nil
end

--- The root for a file path: the first marker found walking up wins, in the order given.
function M.for_file(path, markers)
  local dir = vim.fn.fnamemodify(path, ":p:h")
  for _, marker in ipairs(markers) do
    local found = M.find_up(dir, marker)
    if found then
      return found
    end
  end
  return dir
end

return M
