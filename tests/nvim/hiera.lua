-- hiera-ls in Neovim's built-in LSP client (Neovim 0.7 or later; no plugin needed).
-- Save as ~/.config/nvim/lua/hiera_ls.lua and add `require("hiera_ls")` to init.lua (the returned table
-- can be changed there: require("hiera_ls").settings.hiera.rounds = 2). Python files and .cu files get
-- the server; the workspace is the nearest folder above the file holding .hiera, .git or pyproject.toml.
local hiera = {
  cmd = { "hiera-ls" }, -- or { "/path/to/venv/bin/python", "-m", "hiera_ls" }
  settings = {
    hiera = { backend = "expert", rounds = 3, candidates = 6, space = "auto", device = "auto" },
  },
  clients = {}, -- workspace root -> client id
}

function hiera.root_dir(file)
  local dir = vim.fn.fnamemodify(file, ":p:h")
  for _, marker in ipairs({ ".hiera", ".git" }) do
    local found = vim.fn.finddir(marker, dir .. ";")
    if found ~= "" then
      return vim.fn.fnamemodify(found, ":p:h:h")
    end
  end
  local project = vim.fn.findfile("pyproject.toml", dir .. ";")
  if project ~= "" then
    return vim.fn.fnamemodify(project, ":p:h")
  end
  return dir
end

function hiera.attach(bufnr)
  local file = vim.api.nvim_buf_get_name(bufnr)
  if file == "" then
    return
  end
  local root = hiera.root_dir(file)
  local id = hiera.clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    -- vim.lsp.start (0.8+) would do the same; start_client + buf_attach_client also works on 0.7.
    id = vim.lsp.start_client({
      name = "hiera-ls",
      cmd = hiera.cmd,
      root_dir = root,
      settings = hiera.settings, -- answered to workspace/configuration (Neovim 0.8+ offers it)
      init_options = hiera.settings, -- what the server reads where the client does not offer it (0.7)
    })
    hiera.clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = { "python", "cuda" },
  callback = function(args)
    hiera.attach(args.buf)
  end,
})

-- Code actions (Optimize with HIERA, Profile kernel): :lua vim.lsp.buf.code_action()
-- Code lenses: :lua vim.lsp.codelens.refresh() then :lua vim.lsp.codelens.run()
return hiera
