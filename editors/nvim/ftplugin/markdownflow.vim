" A MarkdownFlow document behaves as Markdown.
runtime! ftplugin/markdown.vim ftplugin/markdown_*.vim ftplugin/markdown/*.vim
