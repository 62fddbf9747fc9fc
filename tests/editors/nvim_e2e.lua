-- Drives the mfls Neovim plugin against the real server, headless.
-- Environment: MFLS_PLUGIN (the plugin folder), MFLS_COURSE (a scratch copy of the
-- example course), MFLS_SERVER_CMD (JSON list), MFLS_RESULTS (where to write JSON),
-- MFLS_WAIT_MS (the bound for each wait).
-- Every step runs under pcall: an uncaught error would hang headless Neovim.
-- The checks run in a coroutine: a check that types (nvim_input, like a person) yields
-- to Neovim's main loop, which reads the keys, runs the omnifunc and shows the menu,
-- and is resumed by a timer once what it waits for is on screen.

local kit = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/kit/checks.lua")
local runner = kit.new({ nvim = kit.nvim_version() })
local results, record, open, course = runner.results, runner.record, runner.open, runner.course
local wait_ms = kit.wait_ms

local function mfls_client(bufnr)
  return require("mfls.clients").attached(bufnr)
end

local function wait_for_client(bufnr)
  -- The FileType hook has attached already.
  return kit.wait_for_client(bufnr, wait_ms)
end

-- The 0-based line and UTF-16 column of the first occurrence of `needle` (plain text; the
-- lines searched are ASCII, so bytes and UTF-16 units agree), plus `shift` columns.
local function position_of(bufnr, needle, shift)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  for index, line in ipairs(lines) do
    local col = string.find(line, needle, 1, true)
    if col then
      return { line = index - 1, character = col - 1 + (shift or 0) }
    end
  end
  error("not found in buffer: " .. needle)
end

local function request(bufnr, method, params)
  local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, wait_ms)
  if not responses then
    error(method .. " got no answer: " .. tostring(err))
  end
  for _, response in pairs(responses) do
    if response.err then
      error(method .. " failed: " .. vim.inspect(response.err))
    end
    return response.result
  end
  return nil
end

local function text_params(bufnr, position)
  return { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = position }
end

local driver -- the coroutine running the checks

-- Yields to the main loop until `predicate()` is true (its value), or fails naming `what`.
local function await(what, predicate)
  local deadline = vim.loop.now() + wait_ms
  local timer = vim.loop.new_timer()
  timer:start(20, 20, vim.schedule_wrap(function()
    if timer:is_closing() then
      return
    end
    local ok, value = pcall(predicate)
    if (ok and value) or vim.loop.now() > deadline then
      timer:stop()
      timer:close()
      local resumed, err = coroutine.resume(driver, ok and value or nil)
      if not resumed then
        record("main", false, "error: " .. tostring(err))
      end
    end
  end))
  local value = coroutine.yield()
  if not value then
    error("timed out after " .. wait_ms .. " ms waiting for " .. what .. " (mode "
      .. vim.fn.mode() .. ", line " .. vim.inspect(vim.api.nvim_get_current_line()) .. ")")
  end
  return value
end

-- Types `keys` as a person would (they go through the typeahead) and waits until the
-- main loop has read them all and `predicate()` holds.
local function type_then(keys, what, predicate)
  vim.api.nvim_input(keys)
  return await(what, predicate)
end

local function location_target(location)
  if location.targetUri then
    return location.targetUri, location.targetSelectionRange or location.targetRange
  end
  return location.uri, location.range
end

local checks = {}

function checks.attach()
  local bufnr = open("lessons/02-first-program.md")
  local client = wait_for_client(bufnr)
  local root = client.config.root_dir
  record("attach", vim.fn.resolve(root) == vim.fn.resolve(course),
    "root_dir=" .. tostring(root) .. " rename=" .. tostring(client.server_capabilities.renameProvider ~= nil))
  results.rename_provider = client.server_capabilities.renameProvider ~= nil
    and client.server_capabilities.renameProvider ~= false
end

function checks.diagnostics()
  local bufnr = open("lessons/03-practice.md")
  wait_for_client(bufnr)
  local empty_line = position_of(bufnr, "{{ }}").line
  local found
  vim.wait(wait_ms, function()
    for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
      if diagnostic.lnum == empty_line and diagnostic.severity == vim.diagnostic.severity.ERROR then
        found = diagnostic
        return true
      end
    end
    return false
  end, 50)
  local codes = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(codes, tostring(diagnostic.code) .. "@" .. diagnostic.lnum)
  end
  record("diagnostics", found ~= nil and found.code == "marker-empty", table.concat(codes, " "))
end

-- `method` asked inside the key read in lesson 02 (its binding is in lesson 01).
local function at_read_key(method)
  local bufnr = open("lessons/02-first-program.md")
  wait_for_client(bufnr)
  return request(bufnr, method,
    text_params(bufnr, position_of(bufnr, "{{ What would you like to learn? }}", 5)))
end

function checks.hover()
  local result = at_read_key("textDocument/hover")
  local value = ""
  if result and result.contents then
    value = type(result.contents) == "string" and result.contents or (result.contents.value or "")
  end
  local fenced = false
  for block in string.gmatch(value, "```[^\n]*\n(.-)\n```") do
    if block == "What would you like to learn?" then
      fenced = true
    end
  end
  record("hover", fenced, value)
end

function checks.definition()
  local result = at_read_key("textDocument/definition")
  if result and result.uri == nil and result.targetUri == nil then
    result = result[1]
  end
  if not result then
    record("definition", false, "no location")
    return
  end
  local uri, range = location_target(result)
  local path = vim.uri_to_fname(uri)
  local ok = vim.endswith(path, "/lessons/01-welcome.md") and range.start.line == 6
  record("definition", ok, path .. ":" .. range.start.line .. ":" .. range.start.character)
end

function checks.completion()
  local bufnr = open("lessons/04-project.md")
  wait_for_client(bufnr)
  local original = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local last = #original
  vim.api.nvim_buf_set_lines(bufnr, last, last, false, { "", "Recall {{" })
  local position = { line = last + 1, character = #"Recall {{" }
  local params = text_params(bufnr, position)
  params.context = { triggerKind = 2, triggerCharacter = "{" }
  local result = request(bufnr, "textDocument/completion", params)
  local items = result and (result.items or result) or {}
  local offered = {}
  local ok = false
  for _, item in ipairs(items) do
    local text = item.textEdit and item.textEdit.newText or item.insertText or item.label
    table.insert(offered, item.label)
    if string.find(item.label, "What would you like to learn?", 1, true)
      and string.find(text, "What would you like to learn?", 1, true) then
      ok = true
    end
  end
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, original)
  vim.bo[bufnr].modified = false
  record("completion", ok, table.concat(offered, " | "))
end

-- Types `typed` on a new last line, then <C-x><C-o> (the buffer's omnifunc), and once the
-- menu shows, `accept`; returns the line, the words offered and the omnifunc's name.
local function omni_complete(bufnr, typed, accept)
  vim.api.nvim_win_set_cursor(0, { vim.api.nvim_buf_line_count(bufnr), 0 })
  local words = type_then("o" .. typed .. "<C-x><C-o>", "the completion menu", function()
    if vim.fn.pumvisible() ~= 1 then
      return nil
    end
    local found = {}
    for _, item in ipairs(vim.fn.complete_info({ "items" }).items) do
      table.insert(found, item.word)
    end
    return found
  end)
  -- Neovim 0.11 writes a snippet item once it is resolved: wait for the closing braces.
  type_then(accept, "the accepted item", function()
    local line = vim.api.nvim_get_current_line()
    return vim.fn.pumvisible() == 0 and string.find(line, "}}", 1, true) ~= nil
  end)
  local line = type_then("<Esc>", "normal mode", function()
    return vim.fn.mode() == "n" and vim.api.nvim_get_current_line()
  end)
  return line, words
end

-- The plugin's omnifunc (Neovim's, and a message when nothing matches).
local PLUGIN_OMNIFUNC = "v:lua.require'mfls.completion'.omnifunc"

-- The key an offered word writes (Neovim 0.11 shows the label, 0.7 the text written).
local function key_of(word)
  return vim.trim((word:gsub("}}$", "")))
end

local function omni_check(name, typed, accept, completeopt, expected, also_offered, not_offered)
  local bufnr = open("lessons/04-project.md")
  wait_for_client(bufnr)
  local original = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local omnifunc = vim.bo[bufnr].omnifunc
  vim.o.completeopt = completeopt
  local ok, line, words = pcall(omni_complete, bufnr, typed, accept)
  if vim.fn.mode() ~= "n" then
    pcall(type_then, "<C-e><Esc>", "normal mode", function()
      return vim.fn.mode() == "n"
    end)
  end
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, original)
  vim.bo[bufnr].modified = false
  if not ok then
    record(name, false, "omnifunc=" .. omnifunc .. " " .. tostring(line))
    return
  end
  local offered = also_offered == nil
  for _, word in ipairs(words) do
    offered = offered or key_of(word) == also_offered
    if not_offered ~= nil and key_of(word) == not_offered then
      offered = false
      break
    end
  end
  local detail = "omnifunc=" .. omnifunc .. " line=" .. vim.inspect(line)
    .. " offered=" .. vim.inspect(words)
  record(name, line == expected and offered and omnifunc == PLUGIN_OMNIFUNC, detail)
end

-- After `{{` the first item (bound in this lesson) is written whole, braces not doubled.
function checks.omni_braces()
  omni_check("omni_braces", "Recall {{", "<C-n><C-y>", "menuone,noselect",
    "Recall {{ Which project will you build? }}", "What would you like to learn?")
end

-- After `{{ Wh` only keys starting with the typed part are offered, and they replace it.
function checks.omni_typed()
  omni_check("omni_typed", "Recall {{ Wh", "<C-n><C-y>", "menuone,noselect",
    "Recall {{ Which project will you build? }}", "What would you like to learn?", "learner_goal")
end

-- With Neovim 0.7's default 'completeopt' the plugin's buffer setting still selects nothing
-- at first: <C-n><C-y> writes the first item.
function checks.omni_default()
  omni_check("omni_default", "Recall {{ What", "<C-n><C-y>", "menu,preview",
    "Recall {{ What would you like to learn? }}", nil)
end

-- A marker in a `.md` lesson of the course is highlighted by the plugin's syntax.
function checks.highlight()
  local bufnr = open("lessons/02-first-program.md")
  wait_for_client(bufnr)
  local at = position_of(bufnr, "{{ What would you like to learn? }}", 3)
  local names = await("the marker highlighting", function()
    local found = {}
    for _, id in ipairs(vim.fn.synstack(at.line + 1, at.character + 1)) do
      table.insert(found, vim.fn.synIDattr(id, "name"))
    end
    return vim.tbl_contains(found, "markdownflowMarker") and found or nil
  end)
  local linked = vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID("markdownflowMarker")), "name")
  record("highlight", linked ~= "", table.concat(names, " ") .. " -> " .. linked)
end

-- The lens texts shown in the buffer (virtual text of vim.lsp.codelens's namespace).
local function lens_texts(client, bufnr)
  local ns = vim.lsp.codelens.__namespaces[client.id]
  local texts = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })) do
    local chunks = {}
    for _, chunk in ipairs(mark[4].virt_text or {}) do
      table.insert(chunks, chunk[1])
    end
    table.insert(texts, (mark[2] + 1) .. ": " .. table.concat(chunks, ""))
  end
  return texts
end

local function wait_for_lens(client, bufnr, wanted)
  local shown = {}
  local found = vim.wait(wait_ms, function()
    shown = lens_texts(client, bufnr)
    for _, text in ipairs(shown) do
      if text == wanted then
        return true
      end
    end
    return false
  end, 50)
  return found, table.concat(shown, " | ")
end

function checks.codelens()
  local bufnr = open("lessons/01-welcome.md")
  local client = wait_for_client(bufnr)
  local original = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local line = position_of(bufnr, "?[{{ What would you like to learn? }}").line + 1
  local shown, texts = wait_for_lens(client, bufnr, line .. ": asked here · read 4 times in 3 lessons")
  if not shown then
    record("codelens", false, "lens not shown: " .. texts)
    return
  end
  -- Type one more reference, as a person does; leaving insert mode refreshes the lens.
  local keys = vim.api.nvim_replace_termcodes("GoAgain {{ What would you like to learn? }}<Esc>", true, false, true)
  vim.api.nvim_feedkeys(keys, "x", false)
  local refreshed, after = wait_for_lens(client, bufnr, line .. ": asked here · read 5 times in 3 lessons")
  -- Run the lens on the binding's line: the reads land in the quickfix list.
  vim.api.nvim_win_set_cursor(0, { line, 0 })
  vim.lsp.codelens.run()
  local qf
  vim.wait(wait_ms, function()
    qf = vim.fn.getqflist({ title = 1, items = 1 })
    return qf.title == "mfls: references" and #qf.items == 5
  end, 50)
  local places = {}
  for _, item in ipairs(qf.items or {}) do
    table.insert(places, vim.fn.fnamemodify(vim.fn.bufname(item.bufnr), ":t") .. ":" .. item.lnum .. ":" .. item.col)
  end
  vim.cmd("cclose")
  vim.api.nvim_set_current_buf(bufnr)
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, original)
  vim.bo[bufnr].modified = false
  record("codelens", refreshed and #places == 5 and qf.title == "mfls: references",
    "before: " .. texts .. "; after typing: " .. after .. "; quickfix: " .. table.concat(places, " "))
end

-- `?[` then the buffer's omnifunc, as a person types it: Neovim 0.7 declares no snippet
-- support, so the first snippet (single choice) arrives as plain text and is inserted.
function checks.snippets()
  local bufnr = open("lessons/04-project.md")
  wait_for_client(bufnr)
  local original = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local function keys(text, flags)
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(text, true, false, true), flags, false)
  end
  -- Insert mode waits for keys: a timer looks for the popup menu and picks the first
  -- item, then (Neovim 0.11 writes a snippet once the accepted item is resolved) waits for
  -- the line to hold it and leaves insert mode, which lets the typed keys return.
  local wanted = "?[{{ question }} Yes | No]"
  local shown, accepted, menu = false, nil, {}
  local started = vim.loop.now()
  local timer = vim.loop.new_timer()
  timer:start(50, 50, vim.schedule_wrap(function()
    local late = vim.loop.now() - started >= wait_ms
    if accepted == nil then
      local visible = vim.fn.pumvisible() == 1
      if not visible and not late then
        return
      end
      shown = visible
      menu = vim.fn.complete_info({ "items" }).items or {}
      if visible then
        accepted = vim.loop.now()
        keys("<C-n><C-y>", "n")
        return
      end
    elseif vim.api.nvim_get_current_line() ~= wanted and vim.loop.now() - accepted < wait_ms then
      return
    end
    timer:stop()
    timer:close()
    keys("<Esc>", "n")
  end))
  keys("Go?[<C-x><C-o>", "x!")
  local line = vim.api.nvim_get_current_line()
  local labels = {}
  for _, item in ipairs(menu) do
    table.insert(labels, item.abbr or item.word)
  end
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, original)
  vim.bo[bufnr].modified = false
  record("snippets", shown and line == wanted,
    "nvim " .. results.nvim .. " line: " .. line .. "; menu: " .. table.concat(labels, " | "))
end

function checks.rename()
  if not results.rename_provider then
    record("rename", false, "skipped: the server does not advertise renameProvider")
    results.rename_skipped = true
    return
  end
  local shown = {}
  local show = vim.lsp.handlers["window/showMessage"]
  vim.lsp.handlers["window/showMessage"] = function(err, result, ctx, config)
    table.insert(shown, result.message)
    return show(err, result, ctx, config)
  end
  local bufnr = open("lessons/03-practice.md")
  wait_for_client(bufnr)
  local at = position_of(bufnr, "{{ How did the first program go? }}", 5)
  vim.api.nvim_win_set_cursor(0, { at.line + 1, at.character })
  -- As :lua vim.lsp.buf.rename() does once the new name is typed at its prompt.
  vim.lsp.buf.rename("How was your first program?")
  local other = course .. "/lessons/02-first-program.md"
  vim.wait(wait_ms, function()
    local loaded = vim.fn.bufnr(other)
    if loaded < 0 or not vim.api.nvim_buf_is_loaded(loaded) then
      return false
    end
    local text = table.concat(vim.api.nvim_buf_get_lines(loaded, 0, -1, false), "\n")
    return string.find(text, "How was your first program?", 1, true) ~= nil and #shown > 0
  end, 50)
  vim.cmd("silent wall")
  local renamed = {}
  for _, relative in ipairs({ "lessons/02-first-program.md", "lessons/03-practice.md" }) do
    local text = table.concat(vim.fn.readfile(course .. "/" .. relative), "\n")
    if string.find(text, "{{ How was your first program? }}", 1, true) then
      table.insert(renamed, relative)
    end
  end
  vim.lsp.handlers["window/showMessage"] = show
  local warned = #shown > 0 and string.find(shown[1], "Stored answers", 1, true) ~= nil
  record("rename", #renamed == 2 and warned,
    "renamed on disk: " .. table.concat(renamed, " ") .. "; shown: " .. vim.inspect(shown))
end

local order = {
  "attach", "diagnostics", "hover", "definition", "completion",
  "omni_braces", "omni_typed", "omni_default", "highlight", "codelens", "snippets", "rename",
}

local function main()
  vim.opt.swapfile = false
  vim.opt.hidden = true
  vim.cmd("syntax on") -- on by default in Neovim, but not with -u NONE
  require("mfls").setup({ cmd = vim.fn.json_decode(os.getenv("MFLS_SERVER_CMD")) })
  kit.run_checks(runner, checks, order, "the server did not attach")
end

driver = coroutine.create(function()
  kit.main(runner, main)
end)
local started, err = coroutine.resume(driver)
if not started then
  record("main", false, "error: " .. tostring(err))
  kit.finish(runner)
end
