-- mfls: the MarkdownFlow language server for Neovim 0.7 and later.
local root = require("mfls.root")

local M = {}

local defaults = {
  cmd = { "mfls" },
  filetypes = { "markdown", "markdownflow" },
  root_markers = root.DEFAULT_MARKERS,
  settings = {},
  locale = "auto",
  init_options = nil,
  capabilities = nil,
  on_attach = nil,
  autostart = true,
  omnifunc = true,
  highlight_markers = true,
}

M.config = vim.deepcopy(defaults)

-- Neovim 0.7 has no vim.lsp.start: one client per root, attached by hand.
local clients_by_root = {}

local function has_start()
  return vim.lsp.start ~= nil
end

--- The command of mfls's code lenses (arguments: document URI, position, locations):
--- the locations in the quickfix list, opened.
local function show_references(command, ctx)
  local locations = (command.arguments or {})[3] or {}
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local encoding = client and client.offset_encoding or "utf-16"
  local items = vim.lsp.util.locations_to_items(locations, encoding)
  vim.fn.setqflist({}, " ", { title = "mfls: references", items = items })
  vim.cmd("botright copen")
end

--- Code lenses of the buffer, shown now and refreshed on BufEnter and InsertLeave.
local function attach_codelens(client, bufnr)
  local caps = client.server_capabilities or client.resolved_capabilities or {}
  if not (caps.codeLensProvider or caps.code_lens) then
    return
  end
  local group = vim.api.nvim_create_augroup("mfls_codelens_" .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ "BufEnter", "InsertLeave" }, {
    group = group,
    buffer = bufnr,
    callback = function()
      vim.lsp.codelens.refresh()
    end,
  })
  if bufnr == vim.api.nvim_get_current_buf() then
    vim.lsp.codelens.refresh()
  end
end

local function on_attach(client, bufnr)
  attach_codelens(client, bufnr)
  if M.config.on_attach then
    M.config.on_attach(client, bufnr)
  end
end

-- Neovim 0.11 asks `completionItem/resolve` for an accepted item and writes it only when
-- the answer comes: an <Esc> typed before then moves the cursor, and the item lands one
-- column off ("{{Which ... }} "). mfls resolves only documentation, which Neovim asks with
-- the item (it declares no lazy documentation), so the item is written at once instead.
local function on_init(client)
  local completion = (client.server_capabilities or {}).completionProvider
  local lazy = vim.tbl_get(client.config or {}, "capabilities", "textDocument", "completion",
    "completionItem", "resolveSupport", "properties") or {}
  if type(completion) == "table" and not vim.tbl_contains(lazy, "documentation") then
    completion.resolveProvider = false
  end
end

-- Neovim sends no `locale` in `initialize`: the plugin sends the environment's
-- (LC_ALL, LC_MESSAGES, LANG, then v:lang); `locale` other than "auto" is the mfls.locale setting.
local function client_locale()
  for _, name in ipairs({ "LC_ALL", "LC_MESSAGES", "LANG" }) do
    local value = os.getenv(name)
    if value ~= nil and value ~= "" then
      return value
    end
  end
  return vim.v.lang
end

local function before_init(params)
  params.locale = params.locale or client_locale()
end

local function client_config(root_dir)
  local cfg = M.config
  local settings = vim.deepcopy(cfg.settings or {})
  local init_options = cfg.init_options
  if cfg.locale ~= nil and cfg.locale ~= "auto" then
    -- In both: initializationOptions is read before any diagnostic, settings win later.
    settings.mfls = vim.tbl_extend("force", settings.mfls or {}, { locale = cfg.locale })
    init_options = vim.deepcopy(init_options or {})
    local section = type(init_options.mfls) == "table" and init_options.mfls or init_options
    section.locale = cfg.locale
  end
  return {
    name = "mfls",
    cmd = cfg.cmd,
    root_dir = root_dir,
    workspace_folders = {
      { uri = vim.uri_from_fname(root_dir), name = vim.fn.fnamemodify(root_dir, ":t") },
    },
    settings = settings,
    init_options = init_options,
    before_init = before_init,
    capabilities = cfg.capabilities or vim.lsp.protocol.make_client_capabilities(),
    commands = { ["mfls.showReferences"] = show_references },
    on_init = on_init,
    on_attach = on_attach,
  }
end

local function is_managed_filetype(ft)
  for _, candidate in ipairs(M.config.filetypes) do
    if candidate == ft then
      return true
    end
  end
  return false
end

--- True when the buffer's file lies in a course (a folder above it holds mfcourse.toml or
--- is an AI-Shifu course folder).
local function in_course(bufnr)
  local path = vim.api.nvim_buf_get_name(bufnr)
  return path ~= "" and root.course_root(vim.fn.fnamemodify(path, ":p:h")) ~= nil
end

--- Adds the marker highlighting to a Markdown buffer of a course (a markdownflow buffer
--- has it from its own syntax). Runs once the syntax has been loaded, which clears it.
function M.highlight_markers(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.b[bufnr].current_syntax ~= "markdown" then
    return false
  end
  if not in_course(bufnr) then
    return false
  end
  vim.api.nvim_buf_call(bufnr, function()
    vim.cmd("runtime syntax/markdownflow/markers.vim")
  end)
  return true
end

--- `K` shows the hover (Neovim 0.10 and later map it themselves in LSP buffers), unless
--- the buffer already maps it.
local function map_hover(bufnr)
  if vim.fn.has("nvim-0.10") == 1 then
    return
  end
  vim.api.nvim_buf_call(bufnr, function()
    if vim.fn.maparg("K", "n") == "" then
      vim.api.nvim_buf_set_keymap(bufnr, "n", "K", "<Cmd>lua vim.lsp.buf.hover()<CR>",
        { noremap = true, silent = true, desc = "mfls: hover" })
    end
  end)
end

--- Buffer settings of an attached buffer: completion with <C-x><C-o>, `K` for the hover,
--- markers highlighted; the buffer becomes the one :Mfls* commands use from other windows.
local function buffer_setup(bufnr)
  local group = vim.api.nvim_create_augroup("mfls_buffer_" .. bufnr, { clear = true })
  if M.config.omnifunc then
    require("mfls.completion").attach(bufnr, group)
  end
  map_hover(bufnr)
  if M.config.highlight_markers then
    M.highlight_markers(bufnr)
  end
  require("mfls.course_map").remember(bufnr)
  vim.api.nvim_create_autocmd("BufEnter", {
    group = group,
    buffer = bufnr,
    callback = function()
      require("mfls.course_map").remember(bufnr)
    end,
  })
end

--- The checkout this plugin lies in (editors/nvim/lua/mfls/init.lua, four folders up).
local function checkout()
  local source = debug.getinfo(1, "S").source:gsub("^@", "")
  return vim.fn.fnamemodify(source, ":p:h:h:h:h:h")
end

--- The command that installs the server, as the README and :help mfls give it.
function M.install_command()
  local folder = checkout()
  if folder:find("[^%w/._+-]") then
    folder = vim.fn.shellescape(folder)
  end
  return "pipx install " .. folder
end

local function report_missing_server()
  local message = "mfls: cannot start `" .. table.concat(M.config.cmd, " ") .. "`: install "
    .. "the server with `" .. M.install_command() .. "` (see :help mfls-setup)"
  -- Scheduled: inside the FileType autocommand Neovim would show it as that autocommand's
  -- error, with a stack trace.
  vim.schedule(function()
    vim.notify(message, vim.log.levels.ERROR)
  end)
end

local reported_missing = false

--- True when the server's command can run; says once how to install it when not.
local function server_found()
  if vim.fn.executable(M.config.cmd[1]) == 1 then
    return true
  end
  if not reported_missing then
    reported_missing = true
    report_missing_server()
  end
  return false
end

--- Starts (or reuses) the server for the buffer's course and attaches the buffer.
--- Returns the client id, or nil when the buffer has no file.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local path = vim.api.nvim_buf_get_name(bufnr)
  if path == "" or vim.bo[bufnr].buftype ~= "" then
    return nil
  end
  if not server_found() then
    return nil
  end
  local root_dir = root.for_file(path, M.config.root_markers)
  if has_start() then
    local started = vim.lsp.start(client_config(root_dir), { bufnr = bufnr })
    if started then
      buffer_setup(bufnr)
    end
    return started
  end
  local client_id = clients_by_root[root_dir]
  if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
    client_id = vim.lsp.start_client(client_config(root_dir))
    if client_id == nil then
      report_missing_server()
      return nil
    end
    clients_by_root[root_dir] = client_id
  end
  if vim.lsp.buf_attach_client(bufnr, client_id) ~= false then
    buffer_setup(bufnr)
  end
  return client_id
end

--- Stops every mfls client and attaches the managed buffers again.
function M.restart()
  if vim.lsp.is_enabled ~= nil and vim.lsp.is_enabled("mfls") then
    -- Started by vim.lsp.enable("mfls") (lsp/mfls.lua): Neovim's own restart.
    vim.lsp.enable("mfls", false)
    vim.defer_fn(function()
      vim.lsp.enable("mfls")
    end, 500)
    return
  end
  local list = vim.lsp.get_clients and vim.lsp.get_clients({ name = "mfls" })
    or vim.lsp.get_active_clients()
  for _, client in ipairs(list) do
    if client.name == "mfls" then
      client.stop()
    end
  end
  clients_by_root = {}
  reported_missing = false
  vim.defer_fn(function()
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(bufnr) and is_managed_filetype(vim.bo[bufnr].filetype) then
        M.attach(bufnr)
      end
    end
  end, 500)
end

local function define_commands()
  vim.api.nvim_create_user_command("MflsRestart", M.restart, { desc = "Restart the mfls server" })
  require("mfls.course_map").commands()
end

--- Loading a syntax clears the buffer's: adds the markers once it is done.
local function highlight_after_syntax(group)
  vim.api.nvim_create_autocmd("Syntax", {
    group = group,
    pattern = "markdown",
    callback = function(args)
      vim.schedule(function()
        M.highlight_markers(args.buf)
      end)
    end,
  })
end

local enabled_before = false

--- on_attach of lsp/mfls.lua: a buffer attached by `vim.lsp.enable("mfls")` gets what
--- setup() gives one (commands, code lenses, completion, `K`, marker highlighting).
function M.on_enabled_attach(client, bufnr)
  if not enabled_before then
    enabled_before = true
    define_commands()
    if M.config.highlight_markers then
      highlight_after_syntax(vim.api.nvim_create_augroup("mfls_enabled", { clear = true }))
    end
  end
  attach_codelens(client, bufnr)
  if M.config.omnifunc and vim.lsp.completion ~= nil and vim.lsp.completion.enable then
    vim.lsp.completion.enable(true, client.id, bufnr, { autotrigger = false })
  end
  buffer_setup(bufnr)
end

--- The configuration lsp/mfls.lua gives Neovim 0.11 and later (`vim.lsp.enable("mfls")`):
--- the server, its filetypes, the root rule of setup() and, on attach, what setup() gives
--- a buffer. `vim.lsp.config("mfls", {...})` changes any field; a `root_markers` set there
--- is what the root rule walks.
function M.lsp_config()
  return {
    cmd = vim.deepcopy(defaults.cmd),
    filetypes = vim.deepcopy(defaults.filetypes),
    root_markers = vim.deepcopy(root.DEFAULT_MARKERS),
    root_dir = function(bufnr, on_dir)
      local path = vim.api.nvim_buf_get_name(bufnr)
      if path == "" then
        return
      end
      local markers = (vim.lsp.config ~= nil and vim.lsp.config.mfls or {}).root_markers
      on_dir(root.for_file(path, markers or root.DEFAULT_MARKERS))
    end,
    settings = {},
    before_init = before_init,
    on_init = on_init,
    commands = { ["mfls.showReferences"] = show_references },
    on_attach = M.on_enabled_attach,
  }
end

--- Configures the plugin. Options: cmd, filetypes, root_markers, settings, locale,
--- init_options, capabilities, on_attach, autostart, omnifunc, highlight_markers.
function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  local group = vim.api.nvim_create_augroup("mfls", { clear = true })
  define_commands()
  if M.config.omnifunc and vim.lsp.completion ~= nil and vim.lsp.completion.enable then
    -- Neovim 0.11+: the accepted item's text is written whole (a snippet, expanded on
    -- CompleteDone) only where vim.lsp.completion is enabled; without autotrigger,
    -- completion still starts with <C-x><C-o> only.
    vim.api.nvim_create_autocmd("LspAttach", {
      group = group,
      callback = function(args)
        local client = vim.lsp.get_client_by_id(args.data.client_id)
        if client and client.name == "mfls" then
          vim.lsp.completion.enable(true, client.id, args.buf, { autotrigger = false })
        end
      end,
    })
  end
  if M.config.highlight_markers then
    highlight_after_syntax(group)
  end
  if not M.config.autostart then
    return
  end
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and is_managed_filetype(vim.bo[bufnr].filetype) then
      M.attach(bufnr)
    end
  end
end

return M
