-- The mfls language client: the one attached to a buffer, or any that runs.
local M = {}

local function first_mfls(list)
  for _, client in pairs(list) do
    if client.name == "mfls" then
      return client
    end
  end
  return nil
end

--- The mfls client attached to `bufnr`, or nil.
function M.attached(bufnr)
  return first_mfls(
    vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr, name = "mfls" })
      or vim.lsp.buf_get_clients(bufnr)
  )
end

--- Any running mfls client, or nil.
function M.any()
  return first_mfls(
    vim.lsp.get_clients and vim.lsp.get_clients({ name = "mfls" }) or vim.lsp.get_active_clients()
  )
end

return M
