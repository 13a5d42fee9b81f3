"""The tools built on the library: the command line (`cli`), benchmarks
(`bench`), engine matches (`match`), game analysis (`analysis`) and the
executors they share (`pool`). Nothing in the library imports them."""
