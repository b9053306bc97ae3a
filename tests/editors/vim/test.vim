" Tests the Vim plugin (editors/vim): syntax groups, brace indentation, and the errorformat on real
" netschemac output. Run by tests/editors/run.sh; reads $NETSCHEMAC and writes $VIM_TEST_LOG.
filetype plugin indent on
syntax on
set shiftwidth=4 expandtab nomore

let s:dir = expand('<sfile>:p:h')
let s:corpus = fnamemodify(s:dir . '/../corpus', ':p')
let s:log = []
let s:passed = 0

function! s:Check(ok, what) abort
  if a:ok
    let s:passed += 1
  else
    call extend(s:log, split('FAIL vim: ' . a:what, "\n"))
  endif
endfunction

" Syntax groups: vim/NAME.expect holds 'line:col Group' (byte columns; '-' for none) for
" corpus/NAME.netschema.
for s:expect in glob(s:dir . '/*.expect', 0, 1)
  let s:schema = s:corpus . fnamemodify(s:expect, ':t:r') . '.netschema'
  execute 'silent edit ' . fnameescape(s:schema)
  call s:Check(&filetype ==# 'netschema' && get(b:, 'current_syntax', '') ==# 'netschema',
        \ s:schema . ': filetype ' . &filetype . ', syntax ' . get(b:, 'current_syntax', ''))
  let s:n = 0
  for s:text in readfile(s:expect)
    let s:n += 1
    if s:text =~# '^\s*\%(#.*\)\=$'
      continue
    endif
    let s:m = matchlist(s:text, '^\(\d\+\):\(\d\+\)\s\+\(\S\+\)\s*$')
    if empty(s:m)
      call s:Check(0, printf('%s:%d: cannot read "%s"', fnamemodify(s:expect, ':t'), s:n, s:text))
      continue
    endif
    let s:got = synIDattr(synID(str2nr(s:m[1]), str2nr(s:m[2]), 1), 'name')
    call s:Check(s:got ==# (s:m[3] ==# '-' ? '' : s:m[3]), printf('%s:%d: %s:%s:%s is %s, want %s', fnamemodify(s:expect, ':t'),
          \ s:n, fnamemodify(s:schema, ':t'), s:m[1], s:m[2], empty(s:got) ? '(nothing)' : s:got, s:m[3]))
  endfor
  silent bwipeout!
endfor

" The ftplugin's settings.
execute 'silent edit ' . fnameescape(s:corpus . 'types.netschema')
call s:Check(&commentstring ==# '// %s', 'commentstring is ' . &commentstring)
call s:Check(&l:makeprg =~# '^netschemac --check ', 'makeprg is ' . &l:makeprg)
call s:Check(get(b:, 'current_compiler', '') ==# 'netschemac', 'compiler netschemac is not set')
silent bwipeout!

" Indentation: flatten a schema, re-indent it with =, and compare with the original.
for s:name in ['declarations', 'types', 'attributes', 'common']
  let s:want = readfile(s:corpus . s:name . '.netschema')
  silent enew
  setfiletype netschema
  call setline(1, map(copy(s:want), 'substitute(v:val, "^\\s\\+", "", "")'))
  silent normal! gg=G
  let s:got = getline(1, '$')
  for s:i in range(len(s:want))
    if get(s:got, s:i, '') !=# s:want[s:i]
      call s:Check(0, printf('indent %s.netschema:%d: got "%s", want "%s"', s:name, s:i + 1,
            \ get(s:got, s:i, ''), s:want[s:i]))
      break
    endif
  endfor
  call s:Check(s:got ==# s:want, 'indent ' . s:name . '.netschema')
  silent bwipeout!
endfor

" The errorformat, on what netschemac really prints for corpus/invalid.netschema: with :cgetexpr,
" then with :make (makeprg).
let s:qf_want = [
      \ [4, 1, 'w', "unused import 'common.netschema': nothing from it is used"],
      \ [7, 14, 'e', "@quantize applies to floating-point fields, not 'u16'"],
      \ [8, 15, 'e', "this @range exceeds what 'u8' holds (0..255)"],
      \ [11, 8, 'e', "'Item' is already declared in this schema"],
      \ [6, 8, 'n', 'first declared here'],
      \ [14, 26, 'e', "invalid escape '\\q': use \\n, \\t, \\r, \\0, \\\\, \\\", \\xHH or \\u{...}"],
      \ [15, 13, 'e', "invalid number '12abc': a number cannot run into letters"],
      \ [16, 22, 'e', "unterminated string: missing closing '\"' before the end of the line"],
      \ [16, 36, 'e', "expected ';' after this, found '}' on the next line"],
      \ ]
function! s:CheckQuickfix(how) abort
  let got = map(getqflist(), '[fnamemodify(bufname(v:val.bufnr), ":t"), v:val.lnum, v:val.col, v:val.type, v:val.text, v:val.valid]')
  let want = map(copy(s:qf_want), '["invalid.netschema"] + v:val + [1]')
  call s:Check(got ==# want, a:how . ": quickfix list\n  got  " . join(map(copy(got), 'string(v:val)'), "\n       ")
        \ . "\n  want " . join(map(copy(want), 'string(v:val)'), "\n       "))
endfunction

execute 'cd ' . fnameescape(s:corpus)
silent edit invalid.netschema
let s:out = system(shellescape($NETSCHEMAC) . ' --check invalid.netschema 2>&1')
call s:Check(v:shell_error == 1, 'netschemac on invalid.netschema exited ' . v:shell_error . ': ' . s:out)
call s:Check(s:out =~# '\n    \s*\^', 'netschemac printed no caret lines to ignore')
" :cgetexpr reads with the global 'errorformat', so set that one too.
compiler! netschemac
cgetexpr s:out
call s:CheckQuickfix(':cgetexpr')

call setqflist([], 'f')
let g:netschemac_command = $NETSCHEMAC
compiler netschemac
silent make!
call s:CheckQuickfix(':make')

" :NetschemaFormat: the buffer laid out as netschemac --format does; a schema with errors is left
" alone; format on save only when asked for.
let s:messy = ['package p;', 'component C {   u8 a @smooth(interpolate)@range(0,9);', '  u16 bb; }']
let s:tidy = ['package p;', '', 'component C {', '    u8  a @range(0, 9) @smooth(interpolate);', '    u16 bb;', '}']
let s:file = tempname() . '.netschema'
for s:on in [0, 1]
  call writefile(s:messy, s:file)
  execute 'silent edit ' . fnameescape(s:file)
  let b:netschema_format_on_save = s:on
  silent write
  call s:Check(readfile(s:file) ==# (s:on ? s:tidy : s:messy), 'written with format on save ' . s:on . ': '
        \ . string(readfile(s:file)))
  silent bwipeout!
endfor
call writefile(s:messy, s:file)
execute 'silent edit ' . fnameescape(s:file)
silent NetschemaFormat
call s:Check(getline(1, '$') ==# s:tidy, ':NetschemaFormat gave ' . string(getline(1, '$')))
silent bwipeout!
let s:bad = ['package p;', 'component C { u8 a @quantize(1); }']
call writefile(s:bad, s:file)
execute 'silent edit ' . fnameescape(s:file)
silent NetschemaFormat
call s:Check(getline(1, '$') ==# s:bad, ':NetschemaFormat changed a schema with errors: ' . string(getline(1, '$')))
silent bwipeout!
call delete(s:file)

call s:Check(empty(v:errmsg), 'a Vim error occurred: ' . v:errmsg)
call add(s:log, printf('vim: %d passed, %d failed', s:passed, len(filter(copy(s:log), 'v:val =~# "^FAIL"'))))
call writefile(s:log, $VIM_TEST_LOG)
if len(filter(copy(s:log), 'v:val =~# "^FAIL"'))
  cquit!
endif
qall!
