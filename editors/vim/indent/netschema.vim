" Vim indent file for netschema: one 'shiftwidth' per open brace or parenthesis.
if exists('b:did_indent')
  finish
endif
let b:did_indent = 1

setlocal indentexpr=GetNetschemaIndent(v:lnum)
setlocal indentkeys=0{,0},0),!^F,o,O
setlocal nosmartindent nocindent
let b:undo_indent = 'setlocal indentexpr< indentkeys< smartindent< cindent<'

if exists('*GetNetschemaIndent')
  finish
endif

" A line without its strings and comments.
function! s:Code(line) abort
  let l = substitute(a:line, '"\%([^"\\]\|\\.\)*"', '""', 'g')
  let l = substitute(l, '/\*.\{-}\*/', '', 'g')
  return substitute(l, '//.*$', '', '')
endfunction

function! GetNetschemaIndent(lnum) abort
  let line = getline(a:lnum)
  " Inside a block comment: leave the line alone.
  if exists('g:syntax_on') && line !~# '^\s*/\*'
        \ && synIDattr(synID(a:lnum, max([1, indent(a:lnum)]), 1), 'name') ==# 'netschemaBlockComment'
    return -1
  endif
  let prev = prevnonblank(a:lnum - 1)
  if prev == 0
    return 0
  endif
  let ind = indent(prev)
  " Count what the previous line opens, not counting the closers it starts with.
  let code = substitute(s:Code(getline(prev)), '^\s*[})]\+', '', '')
  let depth = len(substitute(code, '[^{(]', '', 'g')) - len(substitute(code, '[^})]', '', 'g'))
  if depth > 0
    let ind += shiftwidth()
  elseif depth < 0
    let ind -= shiftwidth()
  endif
  if line =~# '^\s*[})]'
    let ind -= shiftwidth()
  endif
  return max([0, ind])
endfunction
