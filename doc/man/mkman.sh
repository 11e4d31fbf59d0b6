#!/bin/sh
# mkman.sh PROGRAM NAME — write NAME's manual page (roff, man(7)) to stdout,
# made from the program's own --help texts, so the page can never disagree
# with the program: `make install` runs it on the binaries it installs.
#
#   isocheck  the top-level help, then one section per command (each
#             command's --help, as printed), then exit status and files;
#   gsat      its --help.
# Help text is set verbatim (.nf): roff escapes are neutralised (\ -> \e),
# and a line starting with . or ' is protected with \&.
set -eu
prog=$1 name=$2
version=$("$prog" --version | head -1 | awk '{ print $NF }')
verbatim() {   # stdin -> verbatim roff block
  printf '.nf\n'
  sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/^$/\\\&/'
  printf '.fi\n'
}
case $name in
isocheck)
  summary="check a database history against an isolation level"
  ;;
gsat)
  summary="SAT solver with a graph-acyclicity theory (DIMACS CNF and MonoSAT GNF)"
  ;;
*) echo "mkman.sh: unknown program $name" >&2; exit 2 ;;
esac
printf '.TH %s 1 "" "%s %s" "User Commands"\n' "$(echo "$name" | tr a-z A-Z)" "$name" "$version"
printf '.SH NAME\n%s \\- %s\n' "$name" "$summary"
printf '.SH SYNOPSIS\n'
"$prog" --help 2>&1 | sed -n '1s/^usage: //p' | verbatim
printf '.SH DESCRIPTION\n'
"$prog" --help 2>&1 | sed -e '1d' -e '/./,$!d' | verbatim
if [ "$name" = isocheck ]; then
  printf '.SH COMMANDS\n'
  cmds=$("$prog" --help 2>&1 | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
  for c in $cmds; do
    printf '.SS %s\n' "$c"
    "$prog" "$c" --help 2>&1 | verbatim
  done
fi
printf '.SH SEE ALSO\n'
if [ "$name" = isocheck ]; then printf '.BR gsat (1)\n'; else printf '.BR isocheck (1)\n'; fi
printf '.PP\nThe manual in the source tree: doc/cli.md (every command and option), doc/formats.md,\ndoc/checker.md, doc/levels.md, doc/anomalies.md, doc/library.md.\n'
