" MarkdownFlow documents: Markdown with memory markers.
autocmd BufRead,BufNewFile *.mdflow setfiletype markdownflow
