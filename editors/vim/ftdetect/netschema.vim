" Vim filetype detection for netschema replication schemas (*.netschema).
autocmd BufRead,BufNewFile *.netschema setfiletype netschema
