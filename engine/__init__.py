"""hiera's engine: the HIERA loop and everything it needs, with no editor code."""
