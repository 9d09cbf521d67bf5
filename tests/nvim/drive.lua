-- Test driver (tests/test_ls_nvim.py): headless Neovim runs tests/nvim/hiera.lua, the README's config,
-- opens a module, picks "Optimize with HIERA" through Neovim's own code-action path, lets Neovim's own
-- workspace/applyEdit handler apply the result, writes the buffers and reports what it saw as JSON.
local out_path = vim.env.HIERA_NVIM_OUT
local result = { steps = {}, messages = {}, progress = {}, edits = 0 }

local function finish(err)
  result.ok = err == nil
  result.error = err
  local f = assert(io.open(out_path, "w"))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd("qa!")
end

local function drive()
  vim.cmd("filetype on") -- a user's session has it; `-u drive.lua` starts without it
  local hiera = dofile(vim.env.HIERA_NVIM_CONFIG)
  hiera.cmd = vim.fn.json_decode(vim.env.HIERA_NVIM_CMD)
  hiera.settings = { hiera = { device = "cpu", rounds = 2, candidates = 3 } }

  -- Watch the traffic without replacing Neovim's behaviour: record, then call the built-in handler.
  local builtin = vim.lsp.handlers
  local function wrap(method, record)
    local original = builtin[method]
    builtin[method] = function(e, res, ctx, cfg)
      record(res)
      if original then
        return original(e, res, ctx, cfg)
      end
    end
  end
  wrap("$/progress", function(res)
    table.insert(result.progress, res.value)
  end)
  wrap("workspace/applyEdit", function()
    result.edits = result.edits + 1
  end)
  builtin["window/showMessage"] = function(_, res)
    table.insert(result.messages, res.message)
  end
  result.logs = {}
  builtin["window/logMessage"] = function(_, res)
    table.insert(result.logs, res.message)
  end

  vim.cmd("edit " .. vim.fn.fnameescape(vim.env.HIERA_NVIM_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  local client
  assert(vim.wait(20000, function()
    client = vim.lsp.get_active_clients()[1]
    return client ~= nil and client.initialized
  end, 50), "hiera-ls did not initialize")
  table.insert(result.steps, "initialized")

  vim.api.nvim_win_set_cursor(0, { tonumber(vim.env.HIERA_NVIM_LINE), 4 })
  local titles = {}
  vim.ui.select = function(items, opts, on_choice)
    local chosen
    for _, item in ipairs(items) do
      local title = opts.format_item(item)
      table.insert(titles, title)
      if title == "Optimize with HIERA" then
        chosen = item
      end
    end
    on_choice(chosen)
  end
  vim.lsp.buf.code_action()
  assert(vim.wait(10000, function()
    return #titles > 0
  end, 50), "no code actions came back")
  result.titles = titles
  table.insert(result.steps, "code action chosen")

  assert(vim.wait(60000, function()
    for _, p in ipairs(result.progress) do
      if p.kind == "end" then
        return true
      end
    end
    return false
  end, 100), "the job did not end")
  assert(vim.wait(10000, function()
    return result.edits > 0
  end, 50), "no workspace edit arrived")
  table.insert(result.steps, "edit applied")
  vim.cmd("silent wall")

  assert(vim.wait(10000, function()
    local ds = vim.diagnostic.get(bufnr)
    return #ds > 0 and ds[1].message:find("_hiera.py", 1, true) ~= nil
  end, 50), "no diagnostic naming the result on the module")
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(result.diagnostics, { line = d.lnum, message = d.message, severity = d.severity })
  end

  local params = vim.lsp.util.make_position_params()
  local hover = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", params, 10000)
  for _, res in pairs(hover or {}) do
    if res.result and res.result.contents then
      result.hover = res.result.contents.value
    end
  end
  local lenses = vim.lsp.buf_request_sync(bufnr, "textDocument/codeLens",
    { textDocument = vim.lsp.util.make_text_document_params() }, 10000)
  result.lenses = {}
  for _, res in pairs(lenses or {}) do
    for _, lens in ipairs(res.result or {}) do
      table.insert(result.lenses, lens.command.title)
    end
  end
  vim.lsp.stop_client(client.id)
  vim.wait(5000, function()
    return client.is_stopped()
  end, 50)
end

-- After startup, as in a user's session.
-- (scheduled, not inside the VimEnter autocmd: autocmds such as FileType do not fire nested in one)
vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    vim.schedule(function()
      local ok, err = pcall(drive)
      if ok then
        finish(nil)
      else
        finish(tostring(err))
      end
    end)
  end,
})
