/* SPDX-License-Identifier: MIT */
/*
 * wgscan: the command-line tool. Everything but main() is the wgscan_cli_core library
 * (commands.c dispatches, options.c parses, cmd_*.c run), so tests/fuzz/fuzz_cli.c can
 * drive the parser without this file.
 */
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
