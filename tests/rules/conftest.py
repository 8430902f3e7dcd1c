"""The package's rules, tables and input checks: plain Python, no kernel, no browser.

Property tests use hypothesis with its default profile; a failing example is printed with
the seed that reproduces it."""
