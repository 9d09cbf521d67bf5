"""Entry point of `hiera-ls` (stdio)."""


def main() -> None:
    from hiera_ls.server import main as run

    run()


if __name__ == "__main__":
    main()
