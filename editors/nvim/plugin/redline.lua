-- Redline for Neovim: the commands exist at once; the channel starts with setup() (or on the
-- first command), so an editor that never asks for Redline never spawns it.
if vim.g.loaded_redline then
  return
end
vim.g.loaded_redline = true

local function redline()
  return require('redline')
end

vim.api.nvim_create_user_command('RedlineMention', function(o)
  redline().mention(o.line1, o.line2)
end, { range = true, desc = 'Point the connected AI CLIs at these lines' })

vim.api.nvim_create_user_command('RedlineReview', function()
  redline().review()
end, { desc = 'Open the pending reviews in Redline' })

vim.api.nvim_create_user_command('RedlineReject', function(o)
  redline().reject(o.args)
end, { nargs = '?', desc = "Reject the pending review of this file (the reason, if given, goes to its CLI)" })

vim.api.nvim_create_user_command('RedlineStart', function()
  redline().start()
end, { desc = 'Start sending editor context to Redline' })

vim.api.nvim_create_user_command('RedlineStop', function()
  redline().stop()
end, { desc = 'Stop sending editor context to Redline' })
