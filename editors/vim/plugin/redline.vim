vim9script
# Redline for Vim 9: tells the AI CLIs connected to Redline which files are open, where the
# cursor is and what is selected; :RedlineMention points them at lines; buffers reload when a
# review of their file is accepted. One `redline editor --stdio` per Vim, JSON lines both ways
# (docs/editors.md).
#
#   let g:redline_cmd = ['redline', 'editor', '--stdio']   " the default
#   let g:redline_autostart = 1                            " the default

if exists('g:loaded_redline')
  finish
endif
g:loaded_redline = 1

const MAX_FILES = 10
const MAX_SELECTION_CHARS = 16384
# Redline keeps at most this many ranges of one selection (a block's lines).
const MAX_RANGES = 64
# Context changes closer together than this are sent once.
const DEBOUNCE_MS = get(g:, 'redline_debounce_ms', 100)
# A channel that ended is restarted on the next change, at most this often.
const RETRY_MS = 5000
# How long after an accepted review to watch its file for the CLI's write, and how often.
const RELOAD_WATCH_MS = 10000
const RELOAD_POLL_MS = 200

var job: job = null_job
var started_at: list<any> = []
var last_sent = ''
var next_id = 0
var timer = -1
var mru: list<number> = []
g:redline_last_error = ''

def FileOf(buf: number): string
  if !bufexists(buf) || getbufvar(buf, '&buftype') != ''
    return ''
  endif
  const name = bufname(buf)
  if name == ''
    return ''
  endif
  return resolve(fnamemodify(name, ':p'))
enddef

# 1-based character column of 1-based byte column `col` in `line`.
def CharCol(line: string, col: number): number
  const b = max([0, min([col - 1, len(line)])])
  return b >= len(line) ? strchars(line) + 1 : charidx(line, b) + 1
enddef

# The screen column where the character at `p` (a getpos() list) starts.
def LeftOf(p: list<number>): number
  return p[2] > 1 ? virtcol([p[1], p[2] - 1]) + 1 : 1
enddef

# A blockwise selection (CTRL-V) over lines `sl`..`el`: one range per line, each the characters
# whose screen columns start within the block's; lines the block misses are left out. At most
# MAX_RANGES ranges and MAX_SELECTION_CHARS characters of text together.
def BlockRanges(sl: number, el: number, a: list<number>, b: list<number>): list<any>
  const left = min([LeftOf(a), LeftOf(b)])
  var right = max([virtcol([a[1], a[2]]), virtcol([b[1], b[2]])])
  # `$` extends the block to the end of every line.
  if winsaveview().curswant >= 2147483647
    right = 2147483647
  endif
  var ranges: list<any> = []
  var budget = MAX_SELECTION_CHARS
  for l in range(sl, el)
    if len(ranges) >= MAX_RANGES || budget <= 0
      break
    endif
    const line = getline(l)
    var col = 1
    var screen = 0
    var first = 0
    var stop = 0
    while col <= len(line)
      const begins = screen + 1
      screen = virtcol([l, col])
      if begins > right
        break
      endif
      const next = byteidx(line, charidx(line, col - 1) + 1) + 1
      if begins >= left
        first = first > 0 ? first : col
        stop = next
      endif
      col = next
    endwhile
    if first > 0
      var text = strpart(line, first - 1, stop - first)
      if strchars(text) > budget
        text = strcharpart(text, 0, budget)
      endif
      budget -= strchars(text)
      add(ranges, {start: {line: l, col: CharCol(line, first)}, end: {line: l, col: CharCol(line, stop)}, text: text})
    endif
  endfor
  return ranges
enddef

# The visual selection, or {} outside visual mode; a blockwise one also has its ranges (one a
# line) under `ranges`, the selection then spanning them with their texts joined.
def Selection(): dict<any>
  const m = mode()
  if m != 'v' && m != 'V' && m != "\<C-v>"
    return {}
  endif
  var a = getpos('v')
  var b = getpos('.')
  var [sl, sc, el, ec] = [a[1], a[2], b[1], b[2]]
  if sl > el || (sl == el && sc > ec)
    [sl, sc, el, ec] = [el, ec, sl, sc]
  endif
  if m == "\<C-v>"
    const ranges = BlockRanges(sl, el, a, b)
    if !empty(ranges)
      var joined = join(mapnew(ranges, (_, r) => r.text), "\n")
      if strchars(joined) > MAX_SELECTION_CHARS
        joined = strcharpart(joined, 0, MAX_SELECTION_CHARS)
      endif
      return {start: ranges[0].start, end: ranges[-1].end, text: joined, ranges: ranges}
    endif
  endif
  var lines = getline(sl, el)
  var text = ''
  var endcol = 0
  if m == 'V'
    sc = 1
    endcol = strchars(lines[-1]) + 1
    text = join(lines, "\n")
  else
    const last = lines[-1]
    # Through the whole last character, whatever its bytes.
    const lastchar = charidx(last, min([ec - 1, max([0, len(last) - 1])]))
    const stop = lastchar < 0 ? len(last) : byteidx(last, lastchar + 1)
    const cut = stop < 0 ? len(last) : stop
    lines[-1] = strpart(last, 0, cut)
    lines[0] = strpart(lines[0], sc - 1)
    text = join(lines, "\n")
    endcol = CharCol(getline(el), cut + 1)
  endif
  if strchars(text) > MAX_SELECTION_CHARS
    text = strcharpart(text, 0, MAX_SELECTION_CHARS)
  endif
  return {start: {line: sl, col: CharCol(getline(sl), sc)}, end: {line: el, col: endcol}, text: text}
enddef

def Context(): list<any>
  var files: list<any> = []
  var seen: dict<bool> = {}
  const cur = bufnr('%')
  for buf in [cur] + mru
    const path = FileOf(buf)
    if path == '' || has_key(seen, path) || len(files) >= MAX_FILES
      continue
    endif
    if buf != cur && !buflisted(buf)
      continue
    endif
    seen[path] = true
    var f: dict<any> = {path: path}
    if buf == cur
      f.active = true
      f.cursor = {line: line('.'), col: CharCol(getline('.'), col('.'))}
      var sel = Selection()
      if has_key(sel, 'ranges')
        f.ranges = remove(sel, 'ranges')
      endif
      if !empty(sel)
        f.selection = sel
      endif
    endif
    add(files, f)
  endfor
  return files
enddef

def Buffers(path: string): list<number>
  return getbufinfo({bufloaded: 1})->filter((_, b) => FileOf(b.bufnr) == path)->map((_, b) => b.bufnr)
enddef

# While Redline reloads: an unmodified buffer reloads without asking (whatever 'autoread' says),
# a modified one asks as Vim always does.
def OnFileChanged()
  const b = str2nr(expand('<abuf>'))
  v:fcs_choice = getbufvar(b, '&modified') ? 'ask' : 'reload'
enddef

def Reload(path: string)
  augroup RedlineReload
    autocmd!
    autocmd FileChangedShell * OnFileChanged()
  augroup END
  try
    for b in Buffers(path)
      execute 'checktime ' .. b
    endfor
  finally
    autocmd! RedlineReload
  endtry
enddef

# Vim has no file watcher: poll the accepted file's time and size until it settles after
# changing (a write truncates first), then reload its buffers.
def ReloadWhenWritten(path: string)
  if empty(Buffers(path))
    return
  endif
  var state = {was: [getftime(path), getfsize(path)], changed: false, left: RELOAD_WATCH_MS / RELOAD_POLL_MS}
  timer_start(RELOAD_POLL_MS, (t) => {
    const now = [getftime(path), getfsize(path)]
    state.left -= 1
    if now != state.was
      state.changed = true
      state.was = now
    elseif state.changed || state.left <= 0
      timer_stop(t)
      Reload(path)
    endif
  }, {repeat: -1})
enddef

var pending: dict<any> = {}

def OnLine(_ch: channel, line: string)
  var msg: any
  try
    msg = json_decode(line)
  catch
    return
  endtry
  if type(msg) != v:t_dict
    return
  endif
  const id = string(get(msg, 'id', ''))
  if has_key(pending, id)
    const Cb = pending[id]
    remove(pending, id)
    Cb(msg)
  endif
  if get(msg, 'type', '') == 'error'
    g:redline_last_error = get(msg, 'message', '')
  elseif get(msg, 'type', '') == 'accepted'
    ReloadWhenWritten(msg.path)
  endif
enddef

export def Start(): bool
  if job_status(job) == 'run'
    return true
  endif
  started_at = reltime()
  last_sent = ''
  const cmd = get(g:, 'redline_cmd', ['redline', 'editor', '--stdio'])
  try
    job = job_start(cmd, {mode: 'nl', out_cb: OnLine, err_io: 'null'})
  catch
    g:redline_last_error = 'cannot run ' .. cmd[0]
    return false
  endtry
  return job_status(job) == 'run'
enddef

export def Stop()
  if job_status(job) == 'run'
    job_stop(job)
  endif
enddef

def Send(msg: dict<any>, Cb: func = null_function): bool
  if job_status(job) != 'run'
    if !empty(started_at) && reltimefloat(reltime(started_at)) * 1000 < RETRY_MS
      return false
    endif
    if !Start()
      return false
    endif
  endif
  if Cb != null_function
    next_id += 1
    msg.id = next_id
    pending[string(next_id)] = Cb
  endif
  ch_sendraw(job_getchannel(job), json_encode(msg) .. "\n")
  return true
enddef

export def Flush()
  const files = Context()
  const line = json_encode(files)
  if line == last_sent && job_status(job) == 'run'
    return
  endif
  if Send({type: 'context', files: files})
    last_sent = line
  endif
enddef

def Changed()
  const buf = bufnr('%')
  # Most recent first, this buffer at the front, wiped-out ones gone.
  filter(mru, (_, b) => b != buf && bufexists(b))
  if FileOf(buf) != ''
    insert(mru, buf)
  endif
  if timer != -1
    timer_stop(timer)
  endif
  timer = timer_start(DEBOUNCE_MS, (_) => Flush())
enddef

def Warn(what: string): func
  return (msg) => {
    if get(msg, 'type', '') == 'error'
      echohl WarningMsg | echomsg 'Redline: ' .. what .. ': ' .. get(msg, 'message', 'failed') | echohl None
    endif
  }
enddef

export def Mention(l1: number, l2: number)
  const path = FileOf(bufnr('%'))
  if path == ''
    echohl WarningMsg | echomsg 'Redline: this buffer is not a file' | echohl None
    return
  endif
  if !Send({type: 'mention', path: path, start: l1, end: l2}, Warn('mention'))
    echohl WarningMsg | echomsg 'Redline: not connected: ' .. g:redline_last_error | echohl None
  endif
enddef

export def Review()
  if !Send({type: 'review'}, Warn('review'))
    echohl WarningMsg | echomsg 'Redline: not connected: ' .. g:redline_last_error | echohl None
  endif
enddef

# Rejects the pending review of this file; the reason, if given, goes to the CLI that proposed it.
export def Reject(reason: string)
  const path = FileOf(bufnr('%'))
  if path == ''
    echohl WarningMsg | echomsg 'Redline: this buffer is not a file' | echohl None
    return
  endif
  var msg: dict<any> = {type: 'reject', path: path}
  if reason != ''
    msg.reason = reason
  endif
  const Done = (reply) => {
    if get(reply, 'type', '') == 'error'
      echohl WarningMsg | echomsg 'Redline: reject: ' .. get(reply, 'message', 'failed') | echohl None
    elseif get(reply, 'reasonSent', true) == false
      echomsg 'Redline: rejected the review of ' .. fnamemodify(path, ':~:.') .. ' (its CLI takes no reason: yours was not sent)'
    else
      echomsg 'Redline: rejected the review of ' .. fnamemodify(path, ':~:.')
    endif
  }
  if !Send(msg, Done)
    echohl WarningMsg | echomsg 'Redline: not connected: ' .. g:redline_last_error | echohl None
  endif
enddef

command! -range RedlineMention Mention(<line1>, <line2>)
command! -nargs=? RedlineReject Reject(<q-args>)
command! RedlineReview Review()
command! RedlineStart Start()
command! RedlineStop Stop()

augroup Redline
  autocmd!
  autocmd BufEnter,CursorMoved,CursorMovedI,ModeChanged,BufDelete,BufWritePost,FocusGained * Changed()
  autocmd VimLeavePre * Stop()
augroup END

if get(g:, 'redline_autostart', 1)
  Start()
endif
