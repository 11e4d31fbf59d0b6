#!/usr/bin/perl
# history_accessors.pl — the mechanical conversion of direct reads of a
# history's op_txn and op_value arrays into the accessors of
# frontend/history/history.h (history_op_txn, history_op_value), so that
# their layout can change in one place (issue 37, branch hist42).
#
#   X->op_txn[E]    ->  history_op_txn(X, E)
#   X->op_value[E]  ->  history_op_value(X, E)
# X is a name with ->/. members (h, ix->h, c->h); E may hold brackets.
# Assignments to those arrays (only in frontend/history/, which builds
# histories) and address-of uses are left alone and reported.
#
# The index's units (frontend/checking/polygraph.h) keep no length and no
# reader count: they follow from the next unit's m_first and rd_first.
#   P->len, P->rd_num  ->  pg_unit_len(P), pg_unit_rd_num(P)
# for every P declared `pg_unit *P` in the file, and
#   X.units.data[E].len  ->  pg_unit_len(&X.units.data[E])   (X: ix->, ix. ...)
# and a unit's key, no array either (a search of key_unit_start):
#   X->unit_key[E]  ->  pg_unit_key(X, E)
#
# Usage (from the repository's root; idempotent, safe to re-run after a
# merge brought new direct uses):
#   perl bench/history_accessors.pl $(git ls-files '*.c' '*.h')
use strict; use warnings;
my $br = qr/(\[((?:[^\[\]]++|(?-2))*)\])/;
my $lhs = qr/([A-Za-z_]\w*(?:\s*(?:->|\.)\s*[A-Za-z_]\w*)*)/;
my $changed = 0;
for my $f (@ARGV) {
    next if $f =~ m{^frontend/history/history\.h$};       # the accessors themselves
    open(my $in, '<', $f) or die "$f: $!"; local $/; my $s = <$in>; close $in;
    my $orig = $s;
    for my $arr (qw(op_txn op_value)) {
        my $fn = "history_$arr";
        # skip assignments (X->arr[E] = ...) and address-of (&X->arr[E])
        $s =~ s{(?<![&\w>.])$lhs\s*->\s*$arr$br(?!\s*(?:=[^=]|\+=|-=|\|=|&=|\+\+|--))}{"$fn($1, $3)"}ge;
        while ($s =~ m{(?:&\s*$lhs\s*->\s*$arr\[|$lhs\s*->\s*$arr\[[^\n]*\]\s*(?:=[^=]|\+=|\|=))}g) {
            my $line = substr($s, 0, pos($s)) =~ tr/\n//; print STDERR "$f:", $line + 1, ": left alone ($arr)\n";
        }
    }
    unless ($f =~ m{^frontend/checking/(polygraph\.h|known_graph\.c)$}) {   # the index's own
        my %unit;
        $unit{$1} = 1 while $s =~ m{pg_unit\s*\*\s*(\w+)}g;
        $unit{$1} = 1 while $s =~ m{,\s*\*\s*(\w+)\s*=\s*&[\w.>-]*units\.data\[}g;
        for my $p (keys %unit) {
            $s =~ s{\b$p->len\b(?!\s*(?:=[^=]|\+\+|\+=))}{pg_unit_len($p)}g;
            $s =~ s{\b$p->rd_num\b(?!\s*(?:=[^=]|\+\+|\+=))}{pg_unit_rd_num($p)}g;
        }
        $s =~ s{$lhs(\s*(?:->|\.)\s*units\.data)$br\.len\b}{"pg_unit_len(&$1$2$3)"}ge;
        $s =~ s{(?<![&\w>.])$lhs\s*->\s*unit_key$br}{"pg_unit_key($1, $3)"}ge;
    }
    if ($s ne $orig) {
        open(my $out, '>', "$f.tmp") or die "$f.tmp: $!"; print $out $s or die; close $out or die;
        rename "$f.tmp", $f or die "$f: $!"; $changed++;
    }
}
print STDERR "history_accessors: $changed files changed\n";
