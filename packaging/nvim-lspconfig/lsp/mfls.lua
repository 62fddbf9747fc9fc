---@brief
---
--- https://github.com/mfls-dev/mfls
---
--- mfls, the language server for MarkdownFlow: Markdown whose text is a prompt for an AI,
--- with `{{ question }}` memory markers and `?[{{ question }} A | B]` interactions, as
--- AI-Shifu courses are written. Diagnostics, hover, completion of the course's questions
--- after `{{`, go to the question's binding, references, and rename across the lessons of
--- a course.
---
--- Install it with pipx (it needs Python 3.10 or later):
--- ```sh
--- pipx install mfls
--- ```
---
--- A course is the folder holding `mfcourse.toml`, or an AI-Shifu course folder
--- (`structure.json` or `.shifu-sync.json` beside a `lessons/` folder): the nearest of
--- them is the root, else `.git`, else the file's folder. Files named `*.mdflow` are
--- MarkdownFlow too once they have a filetype:
--- ```lua
--- vim.filetype.add({ extension = { mdflow = 'markdownflow' } })
--- ```
---
--- Messages are in English or Simplified Chinese:
--- ```lua
--- vim.lsp.config('mfls', { init_options = { locale = 'zh-CN' } })
--- ```

---@param name string
---@param path string
local function is_course_file(name, path)
  if name == 'mfcourse.toml' then
    return true
  end
  return (name == 'structure.json' or name == '.shifu-sync.json')
    and vim.fn.isdirectory(vim.fs.joinpath(path, 'lessons')) == 1
end

---@type vim.lsp.Config
return {
  cmd = { 'mfls' },
  filetypes = { 'markdown', 'markdownflow' },
  root_dir = function(bufnr, on_dir)
    local fname = vim.api.nvim_buf_get_name(bufnr)
    if fname == '' then
      return
    end
    on_dir(vim.fs.root(bufnr, is_course_file) or vim.fs.root(bufnr, '.git') or vim.fs.dirname(fname))
  end,
}
