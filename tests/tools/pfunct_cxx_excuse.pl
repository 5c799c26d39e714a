#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# pfunct_cxx_excuse.pl WANT GOT: compares pfunct 1.24's output (WANT) with
# ours (GOT) line by line, excusing only the documented C++ differences
# (docs/compat-pfunct.md):
#   PF-RVALUE   1.24 prints an rvalue reference's type as nothing:
#               "int f( x);", "int f(int *, );", " forward<T>(type &);",
#               and in -i's wrapped parameter lines "\t\t r);"
#   PF-CXX-RET  1.24 prints "void" for a return type the DIE takes from its
#               declaration (DW_AT_specification): "void area(...)" where
#               ours prints "double area(...)"
# Prints each pair that still differs; exits 1 if any does (or if the line
# counts differ), 0 otherwise.
use strict;
use warnings;

my ($want_file, $got_file) = @ARGV;
open(my $wf, '<', $want_file) or die "$want_file: $!\n";
open(my $gf, '<', $got_file) or die "$got_file: $!\n";
my @want = <$wf>;
my @got = <$gf>;
if (@want != @got) {
	printf "%d lines, want %d\n", scalar(@got), scalar(@want);
	exit 1;
}

# A template argument list, nested: <...<...>...>
my $targs = qr/(<(?:[^<>]++|(?-1))*>)/;

# PF-RVALUE on one line of ours: each rvalue reference type, of a
# parameter or of the return, printed as 1.24 prints it (as nothing).
# Parameters are split at the top level only: template arguments keep
# their "&&" (1.24 prints those, they are part of a name).
sub rvalue_as_124 {
	my ($line) = @_;
	# the return type
	$line =~ s/^((?:inline )?)(?:[^(<>]|$targs)*?&&(?= )/$1/;
	# the parameter list: the last parenthesis, matched from the end (a
	# type name cut at 128 characters leaves the text before it
	# unbalanced, never this)
	my $close = rindex($line, ')');
	return $line if $close < 0;
	my ($open, $pd) = ($close, 0);
	for (; $open >= 0; $open--) {
		my $c = substr($line, $open, 1);
		$pd++ if $c eq ')';
		$pd-- if $c eq '(';
		last if !$pd;
	}
	return $line if $open < 0;
	my $head = substr($line, 0, $open + 1);
	my $rest = substr($line, $open + 1);
	my ($depth, $start, @parms, $tail) = (0, 0);
	for (my $i = 0; $i < length($rest); $i++) {
		my $c = substr($rest, $i, 1);
		if ($c eq '<' || $c eq '(') {
			$depth++;
		} elsif ($c eq '>' || ($c eq ')' && $i < $close - $open - 1)) {
			$depth--;
		} elsif ($c eq ')') {
			push @parms, substr($rest, $start, $i - $start);
			$tail = substr($rest, $i);
			last;
		} elsif ($c eq ',' && $depth <= 0 && substr($rest, $i, 2) eq ', ') {
			push @parms, substr($rest, $start, $i - $start);
			$start = $i + 2;
			$i++;
		}
	}
	return $line unless defined $tail;
	s/^(?:[^<>]|$targs)*?&&(?= |$)// for @parms;
	return $head . join(', ', @parms) . $tail;
}

my $bad = 0;
for my $i (0 .. $#want) {
	my ($w, $g) = ($want[$i], $got[$i]);
	next if $w eq $g;
	# PF-RVALUE on a parameter line of an inline expansion (-i wraps its
	# origin's parameters, one a line after the first, indented by tabs)
	if ($g =~ /^\t/ && $g !~ /\(/) {
		(my $p = $g) =~ s/^(\t+)(?:[^<>]|$targs)*?&&(?= )/$1/;
		next if $w eq $p;
	}
	$g = rvalue_as_124($g);
	next if $w eq $g;
	# PF-CXX-RET
	if ($w =~ /^((?:inline )?)void (\S.*)$/s) {
		my ($inline, $rest) = ($1, $2);
		next if substr($g, 0, length($inline)) eq $inline &&
			length($g) > length($rest) &&
			substr($g, -length($rest) - 1) eq " $rest";
	}
	print "- $w+ $got[$i]";
	$bad++;
}
exit($bad ? 1 : 0);
