"""The tools built on the library: the command line (`cli`, with the
designer's commands in `workbench`), benchmarks (`bench`), engine matches
(`match`, with its `players`, the UCI client `uci_client` and time
controls in `clock`), game analysis (`analysis`), self-play balance
studies (`study`), piece values (`values`), openings (`openings`), their
arithmetic (`stats`), and the job machinery they share (`jobs`: executors,
interruption, paths, progress; `pool`: resumable result files). Nothing in
the library imports them."""
