-- Completion in the buffers mfls attaches, as the README's keys expect it whatever the
-- user's 'completeopt': <C-x><C-o> opens the menu with nothing selected and nothing
-- inserted, also for a single match ("menuone,noselect"), so <C-n><C-y> writes the
-- first item; when nothing matches, a message says so.
local M = {}

local DROPPED = { noinsert = true, longest = true, preinsert = true }

--- The user's 'completeopt' with "menuone,noselect" and without what inserts a match
--- before it is chosen (noinsert is implied by noselect; longest and preinsert insert).
function M.completeopt(value)
  local parts, seen = {}, {}
  for part in string.gmatch(value or "", "[^,]+") do
    if not DROPPED[part] and not seen[part] then
      seen[part] = true
      table.insert(parts, part)
    end
  end
  for _, part in ipairs({ "menuone", "noselect" }) do
    if not seen[part] then
      table.insert(parts, part)
    end
  end
  return table.concat(parts, ",")
end

local function buffer_local_completeopt()
  local ok, info = pcall(vim.api.nvim_get_option_info, "completeopt")
  return ok and info.scope == "buf"
end

local saved_completeopt = nil

--- Sets 'completeopt' for the buffer on entering insert mode (so that a later `:set cot=`
--- does not undo it): buffer-locally where Neovim has it so (0.11 and later), else the
--- global value, restored on leaving insert mode.
local function set_completeopt(bufnr, group)
  local buffer_local = buffer_local_completeopt()
  vim.api.nvim_create_autocmd("InsertEnter", {
    group = group,
    buffer = bufnr,
    callback = function()
      if buffer_local then
        vim.bo[bufnr].completeopt = M.completeopt(vim.go.completeopt)
        return
      end
      saved_completeopt = saved_completeopt or vim.o.completeopt
      vim.o.completeopt = M.completeopt(saved_completeopt)
    end,
  })
  if buffer_local then
    return
  end
  vim.api.nvim_create_autocmd({ "InsertLeave", "BufLeave" }, {
    group = group,
    buffer = bufnr,
    callback = function()
      if saved_completeopt ~= nil then
        vim.o.completeopt = saved_completeopt
        saved_completeopt = nil
      end
    end,
  })
end

--- What a message says when the server offers nothing at the cursor.
function M.no_match_message(line_to_cursor)
  local typed = string.match(line_to_cursor, "{{%s*([^{}]*)$")
  if typed == nil then
    return "mfls: nothing to complete here: keys are offered inside {{ }}, "
      .. "interactions after ?["
  end
  typed = vim.trim(typed)
  if typed == "" then
    return "mfls: this course has no question to offer yet"
  end
  return "mfls: no question of this course starts with \"" .. typed
    .. "\" (:MflsKeys lists them)"
end

-- Neovim 0.7-0.9's omnifunc keeps only the items whose text starts with what was typed
-- from the start of their edit range; later versions show what the server sends.
local FILTERS_ON_PREFIX = vim.fn.has("nvim-0.10") == 0

local function written_text(item)
  if item.textEdit ~= nil and (item.textEdit.newText or "") ~= "" then
    return item.textEdit.newText
  end
  if (item.insertText or "") ~= "" then
    return item.insertText
  end
  return item.label
end

--- How many of the server's items the menu shows.
local function shown_count(result, line_to_cursor, encoding)
  local items = result and (result.items or result) or {}
  if not FILTERS_ON_PREFIX then
    return #items
  end
  local shown = 0
  for _, item in ipairs(items) do
    local start = #line_to_cursor
    local range = item.textEdit and (item.textEdit.range or item.textEdit.insert)
    if range then
      local ok, byte = pcall(vim.str_byteindex, line_to_cursor, range.start.character,
        encoding ~= "utf-8")
      start = ok and byte or start
    end
    if vim.startswith(written_text(item), line_to_cursor:sub(start + 1)) then
      shown = shown + 1
    end
  end
  return shown
end

--- Asks the server what it offers at the cursor and, when it is nothing and the author is
--- still there, says so. Neovim's omnifunc shows no sign of an empty answer.
local function report_no_match(bufnr)
  local client = require("mfls.clients").attached(bufnr)
  if client == nil then
    return
  end
  local window = vim.api.nvim_get_current_win()
  local cursor = vim.api.nvim_win_get_cursor(window)
  local line_to_cursor = vim.api.nvim_get_current_line():sub(1, cursor[2])
  local params = vim.lsp.util.make_position_params(window, client.offset_encoding)
  local function on_answer(err, result)
    if err ~= nil or shown_count(result, line_to_cursor, client.offset_encoding) > 0 then
      return
    end
    -- After Neovim's own omnifunc has shown its (empty) answer, which redraws the mode.
    vim.defer_fn(function()
      local mode = vim.api.nvim_get_mode().mode
      if vim.api.nvim_get_current_win() ~= window or mode:sub(1, 1) ~= "i" then
        return
      end
      if vim.api.nvim_win_get_cursor(window)[1] ~= cursor[1] then
        return
      end
      -- Insert mode redraws "-- INSERT --" over an echoed message: the message shows at
      -- the cursor, where the menu would be, until the next key; :messages keeps it.
      local message = M.no_match_message(line_to_cursor)
      vim.lsp.util.open_floating_preview({ message }, "", {
        focusable = false,
        close_events = { "CursorMoved", "CursorMovedI", "InsertCharPre", "InsertLeave" },
      })
      vim.api.nvim_echo({ { message, "WarningMsg" } }, true, {})
    end, 100)
  end
  if vim.fn.has("nvim-0.11") == 1 then
    client:request("textDocument/completion", params, on_answer, bufnr)
  else
    client.request("textDocument/completion", params, on_answer, bufnr)
  end
end

--- The 'omnifunc' of attached buffers: Neovim's LSP omnifunc, and a message when the
--- server offers nothing.
function M.omnifunc(findstart, base)
  local answer = vim.lsp.omnifunc(findstart, base)
  if findstart == 1 then
    report_no_match(vim.api.nvim_get_current_buf())
  end
  return answer
end

--- Buffer settings: 'omnifunc' and 'completeopt'.
function M.attach(bufnr, group)
  vim.bo[bufnr].omnifunc = "v:lua.require'mfls.completion'.omnifunc"
  set_completeopt(bufnr, group)
end

return M
