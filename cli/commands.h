/* cli/commands.h — the subcommands of kcsan-scan, one file each. */
#ifndef KCSAN_CLI_COMMANDS_H
#define KCSAN_CLI_COMMANDS_H

#define KCSAN_VERSION "0.1.0"

/* Each takes the subcommand's own argv (argv[0] is the subcommand name)
 * and returns the process exit status. */
int cmd_scan(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_cc(int argc, char **argv);
int cmd_cxx(int argc, char **argv);
int cmd_run(int argc, char **argv);

#endif
