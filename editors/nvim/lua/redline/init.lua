-- Redline for Neovim (0.7+): tells the AI CLIs connected to Redline which files are open, where
-- the cursor is and what is selected; :RedlineMention points them at lines; buffers reload when
-- a review of their file is accepted. One `redline editor --stdio` per Neovim, JSON lines both
-- ways (docs/editors.md).

local M = {}

local config = {
  cmd = { 'redline', 'editor', '--stdio' },
  -- Context changes closer together than this are sent once.
  debounce_ms = 100,
  -- A channel that ended is restarted on the next change, at most this often.
  retry_ms = 5000,
  -- How long after an accepted review to watch its file for the CLI's write.
  reload_watch_ms = 10000,
  -- A file is reloaded once it has not changed for this long.
  settle_ms = 150,
}

-- The CLIs keep ten files and cut selections at 16 KiB, Redline keeps 64 ranges of one
-- selection: sending more only costs bytes.
local MAX_FILES = 10
local MAX_SELECTION_CHARS = 16384
local MAX_RANGES = 64

local encode = (vim.json and vim.json.encode) or vim.fn.json_encode
local decode = (vim.json and vim.json.decode) or vim.fn.json_decode
local uv = vim.loop

local state = {
  job = nil,
  started_at = nil,
  partial = '',
  last_sent = nil,
  next_id = 0,
  pending = {}, -- id -> callback(reply)
  mru = {}, -- buffer numbers, most recent first
  timer = nil,
  last_error = nil,
}

M.state = state

local function notify(msg, level)
  vim.schedule(function()
    vim.notify('Redline: ' .. msg, level or vim.log.levels.INFO)
  end)
end

local function file_of(buf)
  if not vim.api.nvim_buf_is_valid(buf) or vim.bo[buf].buftype ~= '' then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(buf)
  if name == '' then
    return nil
  end
  return uv.fs_realpath(name) or name
end

-- 1-based character column of 1-based byte column `col` in `line`.
local function charcol(line, col)
  local b = math.max(0, math.min(col - 1, #line))
  return vim.str_utfindex(line, b) + 1
end

-- Length in bytes of the character that starts at 1-based byte `col` of `line`.
local function charlen(line, col)
  local ch = line:sub(col):match('^[%z\1-\127\194-\244][\128-\191]*')
  return ch and #ch or 1
end

local function line_text(buf, lnum)
  return vim.api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1] or ''
end

-- A blockwise selection (CTRL-V) over lines `sl`..`el`: one range per line, each the characters
-- whose screen columns start within the block's; lines the block misses are left out. At most
-- MAX_RANGES ranges and MAX_SELECTION_CHARS characters of text together.
local function block_ranges(buf, sl, el, a, b)
  local function left_of(p)
    return p[3] > 1 and vim.fn.virtcol({ p[2], p[3] - 1 }) + 1 or 1
  end
  local left = math.min(left_of(a), left_of(b))
  local right = math.max(vim.fn.virtcol({ a[2], a[3] }), vim.fn.virtcol({ b[2], b[3] }))
  -- `$` extends the block to the end of every line.
  if vim.fn.winsaveview().curswant >= 2147483647 then
    right = math.huge
  end
  local ranges, left_chars = {}, MAX_SELECTION_CHARS
  for l = sl, el do
    if #ranges >= MAX_RANGES or left_chars <= 0 then
      break
    end
    local line = line_text(buf, l)
    local col, screen, first, stop = 1, 0, nil, nil
    while col <= #line do
      local len = charlen(line, col)
      local from = screen + 1
      screen = vim.fn.virtcol({ l, col })
      if from > right then
        break
      end
      if from >= left then
        first = first or col
        stop = col + len
      end
      col = col + len
    end
    if first then
      local text = line:sub(first, stop - 1)
      if vim.fn.strchars(text) > left_chars then
        text = vim.fn.strcharpart(text, 0, left_chars)
      end
      left_chars = left_chars - vim.fn.strchars(text)
      table.insert(ranges, {
        start = { line = l, col = charcol(line, first) },
        ['end'] = { line = l, col = charcol(line, stop) },
        text = text,
      })
    end
  end
  return ranges
end

-- The visual selection in the current window, or nil outside visual mode; for a blockwise one,
-- also its ranges (one a line), the selection then spanning them with their texts joined.
local function selection(buf)
  local mode = vim.api.nvim_get_mode().mode
  local v = mode:sub(1, 1)
  if v ~= 'v' and v ~= 'V' and v ~= '\22' then
    return nil
  end
  local a, b = vim.fn.getpos('v'), vim.fn.getpos('.')
  local sl, sc, el, ec = a[2], a[3], b[2], b[3]
  if sl > el or (sl == el and sc > ec) then
    sl, sc, el, ec = el, ec, sl, sc
  end
  if v == '\22' then
    local ranges = block_ranges(buf, sl, el, a, b)
    if #ranges > 0 then
      local texts = {}
      for i, r in ipairs(ranges) do
        texts[i] = r.text
      end
      local text = table.concat(texts, '\n')
      if vim.fn.strchars(text) > MAX_SELECTION_CHARS then
        text = vim.fn.strcharpart(text, 0, MAX_SELECTION_CHARS)
      end
      return { start = ranges[1].start, ['end'] = ranges[#ranges]['end'], text = text }, ranges
    end
  end
  local text
  if v == 'V' then
    local lines = vim.api.nvim_buf_get_lines(buf, sl - 1, el, false)
    sc, ec = 1, #(lines[#lines] or '') + 1
    text = table.concat(lines, '\n')
  else
    local last = line_text(buf, el)
    local stop = math.min(ec - 1 + charlen(last, ec), #last)
    local start = math.min(sc - 1, #line_text(buf, sl))
    text = table.concat(vim.api.nvim_buf_get_text(buf, sl - 1, start, el - 1, stop, {}), '\n')
    ec = stop + 1
  end
  if vim.fn.strchars(text) > MAX_SELECTION_CHARS then
    text = vim.fn.strcharpart(text, 0, MAX_SELECTION_CHARS)
  end
  return {
    start = { line = sl, col = charcol(line_text(buf, sl), sc) },
    ['end'] = { line = el, col = charcol(line_text(buf, el), ec) },
    text = text,
  }
end

local function context()
  local cur = vim.api.nvim_get_current_buf()
  local files, seen = {}, {}
  local function add(buf, active)
    local path = file_of(buf)
    if not path or seen[path] or #files >= MAX_FILES then
      return
    end
    seen[path] = true
    local f = { path = path }
    if active then
      local pos = vim.api.nvim_win_get_cursor(0)
      f.active = true
      f.cursor = { line = pos[1], col = charcol(line_text(buf, pos[1]), pos[2] + 1) }
      f.selection, f.ranges = selection(buf)
    end
    table.insert(files, f)
  end
  add(cur, true)
  for _, buf in ipairs(state.mru) do
    if vim.api.nvim_buf_is_valid(buf) and vim.bo[buf].buflisted then
      add(buf, false)
    end
  end
  return files
end

-- Buffers showing `path`.
local function buffers_of(path)
  local out = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and file_of(buf) == path then
      table.insert(out, buf)
    end
  end
  return out
end

-- The CLI writes an accepted change itself, after Redline tells it: reload once the file has
-- settled (a write truncates first), watching its directory (a CLI may rename a new file over
-- it) until the watch ends.
local function reload_when_written(path)
  if #buffers_of(path) == 0 then
    return
  end
  local dir, base = vim.fn.fnamemodify(path, ':h'), vim.fn.fnamemodify(path, ':t')
  local watch, settle, expire = uv.new_fs_event(), uv.new_timer(), uv.new_timer()
  local function reload()
    vim.schedule(function()
      -- An unmodified buffer reloads without asking (whatever 'autoread' says); a modified one
      -- asks as Neovim always does.
      local group = vim.api.nvim_create_augroup('RedlineReload', { clear = true })
      vim.api.nvim_create_autocmd('FileChangedShell', {
        group = group,
        callback = function(ev)
          vim.v.fcs_choice = vim.bo[ev.buf].modified and 'ask' or 'reload'
        end,
      })
      for _, buf in ipairs(buffers_of(path)) do
        pcall(vim.cmd, 'checktime ' .. buf)
      end
      vim.api.nvim_del_augroup_by_id(group)
    end)
  end
  watch:start(dir, {}, function(_, name)
    if name == nil or name == base then
      settle:stop()
      settle:start(config.settle_ms, 0, reload)
    end
  end)
  expire:start(config.reload_watch_ms, 0, function()
    watch:stop()
    watch:close()
    settle:stop()
    settle:close()
    expire:close()
    reload()
  end)
end

local function on_line(line)
  if line == '' then
    return
  end
  local ok, msg = pcall(decode, line)
  if not ok or type(msg) ~= 'table' then
    return
  end
  local cb = msg.id and state.pending[msg.id]
  if cb then
    state.pending[msg.id] = nil
    cb(msg)
  end
  if msg.type == 'error' then
    state.last_error = msg.message
  elseif msg.type == 'accepted' and type(msg.path) == 'string' then
    reload_when_written(msg.path)
  end
end

local function on_stdout(_, data)
  -- A job's output arrives in chunks: the first item continues the last partial line.
  data[1] = state.partial .. data[1]
  state.partial = table.remove(data)
  for _, line in ipairs(data) do
    on_line(line)
  end
end

function M.running()
  return state.job ~= nil
end

function M.start()
  if state.job then
    return true
  end
  state.started_at = uv.now()
  state.partial = ''
  state.last_sent = nil
  local ok, job = pcall(vim.fn.jobstart, config.cmd, {
    on_stdout = on_stdout,
    on_exit = function()
      state.job = nil
      for id, cb in pairs(state.pending) do
        state.pending[id] = nil
        cb({ type = 'error', message = 'the Redline channel closed' })
      end
    end,
  })
  if not ok or job <= 0 then
    state.last_error = 'cannot run ' .. config.cmd[1]
    return false
  end
  state.job = job
  return true
end

function M.stop()
  if state.job then
    vim.fn.jobstop(state.job)
    state.job = nil
  end
end

local function send(msg, cb)
  if not state.job then
    if state.started_at and uv.now() - state.started_at < config.retry_ms then
      return false
    end
    if not M.start() then
      return false
    end
  end
  if cb then
    state.next_id = state.next_id + 1
    msg.id = state.next_id
    state.pending[msg.id] = cb
  end
  -- The process may have ended since: its on_exit clears the job shortly.
  return pcall(vim.fn.chansend, state.job, encode(msg) .. '\n')
end

--- Sends the context now if it changed since last sent.
function M.flush()
  local files = context()
  local line = encode(files)
  if line == state.last_sent and state.job then
    return
  end
  if send({ type = 'context', files = files }) then
    state.last_sent = line
  end
end

local function changed()
  local buf = vim.api.nvim_get_current_buf()
  -- Most recent first, this buffer at the front, wiped-out ones gone.
  local mru = file_of(buf) and { buf } or {}
  for _, b in ipairs(state.mru) do
    if b ~= buf and vim.api.nvim_buf_is_valid(b) then
      table.insert(mru, b)
    end
  end
  state.mru = mru
  state.timer:stop()
  state.timer:start(config.debounce_ms, 0, vim.schedule_wrap(M.flush))
end

local function reply_to_user(what)
  return function(msg)
    if msg.type == 'error' then
      notify(what .. ': ' .. (msg.message or 'failed'), vim.log.levels.WARN)
    end
  end
end

--- Points the CLIs at lines `l1..l2` (1-based) of the current file.
function M.mention(l1, l2)
  local path = file_of(vim.api.nvim_get_current_buf())
  if not path then
    notify('this buffer is not a file', vim.log.levels.WARN)
    return
  end
  if not send({ type = 'mention', path = path, start = l1, ['end'] = l2 }, reply_to_user('mention')) then
    notify('not connected: ' .. (state.last_error or 'redline is not running'), vim.log.levels.WARN)
  end
end

--- Opens the pending reviews in Redline's window.
function M.review()
  if not send({ type = 'review' }, reply_to_user('review')) then
    notify('not connected: ' .. (state.last_error or 'redline is not running'), vim.log.levels.WARN)
  end
end

--- Rejects the pending review of the current file, telling its CLI `reason` (optional) where it
--- can hear one.
function M.reject(reason)
  local path = file_of(vim.api.nvim_get_current_buf())
  if not path then
    notify('this buffer is not a file', vim.log.levels.WARN)
    return
  end
  local msg = { type = 'reject', path = path }
  if reason and reason ~= '' then
    msg.reason = reason
  end
  local sent = send(msg, function(reply)
    if reply.type == 'error' then
      notify('reject: ' .. (reply.message or 'failed'), vim.log.levels.WARN)
    elseif reply.reasonSent == false then
      notify('rejected the review of ' .. vim.fn.fnamemodify(path, ':~:.')
        .. " (its CLI takes no reason: yours was not sent)")
    else
      notify('rejected the review of ' .. vim.fn.fnamemodify(path, ':~:.'))
    end
  end)
  if not sent then
    notify('not connected: ' .. (state.last_error or 'redline is not running'), vim.log.levels.WARN)
  end
end

function M.setup(opts)
  config = vim.tbl_extend('force', config, opts or {})
  state.timer = state.timer or uv.new_timer()
  local group = vim.api.nvim_create_augroup('Redline', { clear = true })
  vim.api.nvim_create_autocmd(
    { 'BufEnter', 'CursorMoved', 'CursorMovedI', 'ModeChanged', 'BufDelete', 'BufWritePost', 'FocusGained' },
    { group = group, callback = changed }
  )
  vim.api.nvim_create_autocmd('VimLeavePre', { group = group, callback = M.stop })
  M.start()
  changed()
end

return M
