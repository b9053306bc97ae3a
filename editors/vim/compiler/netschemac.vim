" Vim compiler file for netschemac: ':make' checks the current schema and fills the quickfix list.
" Set g:netschemac_command (default 'netschemac') and g:netschemac_args (e.g. '-I schemas').
if exists('current_compiler')
  finish
endif
let current_compiler = 'netschemac'
if exists(':CompilerSet') != 2
  command -nargs=* CompilerSet setlocal <args>
endif
let s:cpo_save = &cpo
set cpo&vim

execute 'CompilerSet makeprg=' . escape(get(g:, 'netschemac_command', 'netschemac') . ' --check '
      \ . get(g:, 'netschemac_args', '') . ' %:S', ' \|"')

" 'file:line:col: error|warning|note: message', then the source line and a caret line, both
" indented by four spaces (ignored), and a summary line such as '2 errors generated.' (ignored).
CompilerSet errorformat=%-G\ \ \ \ %.%#,
      \%f:%l:%c:\ %trror:\ %m,
      \%f:%l:%c:\ %tarning:\ %m,
      \%f:%l:%c:\ %tote:\ %m,
      \netschemac:\ %trror:\ %m,
      \%-G%.%#

" netschemac counts columns in code points, Vim in bytes: fix the columns of entries in .netschema
" files whose line has non-ASCII text before the column.
function! s:Line(bufnr, lnum) abort
  if bufloaded(a:bufnr)
    return get(getbufline(a:bufnr, a:lnum), 0, '')
  endif
  let file = fnamemodify(bufname(a:bufnr), ':p')
  return filereadable(file) ? get(readfile(file, '', a:lnum), a:lnum - 1, '') : ''
endfunction

function! s:FixColumns(loclist) abort
  if get(b:, 'current_compiler', get(g:, 'current_compiler', '')) !=# 'netschemac'
    return
  endif
  let items = a:loclist ? getloclist(0) : getqflist()
  let changed = 0
  for e in items
    if e.valid && e.lnum > 0 && e.col > 1 && !e.vcol && bufname(e.bufnr) =~# '\.netschema$'
      let byte = byteidx(s:Line(e.bufnr, e.lnum), e.col - 1)
      if byte >= 0 && byte + 1 != e.col
        let e.col = byte + 1
        let changed = 1
      endif
    endif
  endfor
  if changed
    if a:loclist
      call setloclist(0, [], 'r', {'items': items})
    else
      call setqflist([], 'r', {'items': items})
    endif
  endif
endfunction

augroup netschemac_columns
  autocmd!
  autocmd QuickFixCmdPost make,cfile,cgetfile,caddfile,cexpr,cgetexpr,caddexpr,cbuffer,cgetbuffer,caddbuffer
        \ call s:FixColumns(0)
  autocmd QuickFixCmdPost lmake,lfile,lgetfile,laddfile,lexpr,lgetexpr,laddexpr,lbuffer,lgetbuffer,laddbuffer
        \ call s:FixColumns(1)
augroup END

let &cpo = s:cpo_save
unlet s:cpo_save
