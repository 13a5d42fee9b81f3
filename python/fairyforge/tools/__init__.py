"""The tools built on the library: the command line (`cli`), benchmarks
(`bench`), engine matches (`match`, with its `players`, the UCI client
`uci_client` and time controls in `clock`), game analysis (`analysis`) and
the executors they share (`pool`). Nothing in the library imports them."""
