#!/usr/bin/perl
# TrustSuite adapter for CBOR::XS (family cbor, wellFormed mode), Debian's
# libcbor-xs-perl package. JSON lines through JSON::PP (Perl core).
use strict;
use warnings;
use CBOR::XS;
use JSON::PP;

# spec/cbor.md nesting limit of wellFormed mode.
use constant MAX_DEPTH => 64;

$| = 1;
my $json = JSON::PP->new->canonical;

# new_safe is the documented constructor for untrusted data (UTF-8
# validation, no Perl objects, the safe tag filter); decode croaks on a
# malformed item and on data after it.
my $decoder = CBOR::XS->new_safe->max_depth(MAX_DEPTH);

sub answer {
    my ($request) = @_;
    my $input = $request->{input} || {};
    return { result => 'unsupported', error => "family $request->{family} is not mapped by this adapter" }
        unless $request->{family} eq 'cbor';
    my $mode = $input->{mode} // 'wellFormed';
    return { result => 'unsupported', error => "CBOR::XS has no $mode decoding mode" } unless $mode eq 'wellFormed';
    return { result => 'unsupported', error => 'CBOR::XS has no option that checks tag content (tagValidity)' }
        if $input->{tagValidity};
    my $ok = eval { $decoder->decode(pack('H*', $input->{cborHex})); 1 };
    return { result => 'valid' } if $ok;
    my $error = "$@";
    $error =~ s/\s+$//;
    return { result => 'invalid', error => substr($error, 0, 500) };
}

print $json->encode({ adapter => 'cbor-xs', version => "$CBOR::XS::VERSION", families => ['cbor'] }), "\n";
while (my $line = <STDIN>) {
    next unless $line =~ /\S/;
    my $request = $json->decode($line);
    print $json->encode({ id => $request->{id}, %{ answer($request) } }), "\n";
}
