-- Finding the course root of a file, as the server finds a course: the nearest folder
-- holding mfcourse.toml or that is an AI-Shifu course folder (structure.json or
-- .shifu-sync.json beside a lessons/ folder), else the nearest .git, else the file's folder.
local M = {}

local uv = vim.uv or vim.loop

--- The markers, in priority order; a nested list is one level of equal priority (the
--- nearest of its names wins), as in Neovim 0.11.3's `root_markers`.
M.DEFAULT_MARKERS = { { "mfcourse.toml", "structure.json", ".shifu-sync.json" }, ".git" }

--- The AI-Shifu course tool's files: they make a course folder only beside lessons/.
local NEEDS_LESSONS = { ["structure.json"] = true, [".shifu-sync.json"] = true }

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function is_directory(path)
  local stat = uv.fs_stat(path)
  return stat ~= nil and stat.type == "directory"
end

local function parent(dir)
  local up = vim.fn.fnamemodify(dir, ":h")
  if up == dir then
    return nil
  end
  return up
end

local function marks(dir, marker)
  if not exists(dir .. "/" .. marker) then
    return false
  end
  return not NEEDS_LESSONS[marker] or is_directory(dir .. "/lessons")
end

--- The nearest ancestor of `start_dir` (itself included) holding `marker` (a name, or a
--- list of names of equal priority), or nil.
function M.find_up(start_dir, marker)
  local names = type(marker) == "table" and marker or { marker }
  local dir = start_dir
  while dir do
    for _, name in ipairs(names) do
      if marks(dir, name) then
        return dir
      end
    end
    dir = parent(dir)
  end
  return nil
end

--- The course root above `start_dir` (itself included), or nil.
function M.course_root(start_dir)
  return M.find_up(start_dir, M.DEFAULT_MARKERS[1])
end

--- The root for a file path: the first marker found walking up wins, in the order given.
function M.for_file(path, markers)
  local dir = vim.fn.fnamemodify(path, ":p:h")
  for _, marker in ipairs(markers or M.DEFAULT_MARKERS) do
    local found = M.find_up(dir, marker)
    if found then
      return found
    end
  end
  return dir
end

return M
