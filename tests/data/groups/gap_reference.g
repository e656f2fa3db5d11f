# GAP 4.12.1 script that wrote gap_groups.jsonl (permuzzle issue #37). Not run by the build or
# the tests: GAP is a peer used outside the repository to record reference answers.
#   gap -q -o 8g gap_reference.g > gap_groups.jsonl
# Needs the TransGrp and PrimGrp libraries (Debian 12: the gap package). One JSON line per group:
# transitive groups of degree 2..12, then primitive groups of degree 2..40, with GAP's
# generators (cycle notation), its StructureDescription (order <= 2000, else ""), the
# StructureDescription of each factor of CompositionSeries (top first) and GAP's own times in
# milliseconds (StructureDescription, CompositionSeries plus factor names, each on a fresh copy).
# Reference data for permuzzle's group naming / composition series (issue #37).
SetPrintFormattingStatus("*stdout*", false);
# Usage: gap -q -o 8g reference.g > groups.jsonl
# One JSON line per group: transitive groups of degree 2..12, primitive groups of degree 2..40.
cyc := function(p, n)
  local s; s := String(p); RemoveCharacters(s, " \n"); return s; end;
fnames := function(G)
  local s, out, i, F, hom;
  s := CompositionSeries(G); out := [];
  for i in [1..Length(s)-1] do
    hom := NaturalHomomorphismByNormalSubgroup(s[i], s[i+1]);
    F := Image(hom);
    Add(out, Concatenation("\"", StructureDescription(F), "\""));
  od;
  return out;
end;
emit := function(kind, deg, nr, G)
  local gens, t0, sd, t1, H, cf, t2, ord;
  ord := Size(G);
  gens := List(GeneratorsOfGroup(G), g -> Concatenation("\"", cyc(g, deg), "\""));
  t0 := Runtime();
  if ord <= 2000 then
    H := Group(GeneratorsOfGroup(G), ());
    sd := StructureDescription(H);
  else sd := ""; fi;
  t1 := Runtime();
  H := Group(GeneratorsOfGroup(G), ());
  cf := fnames(H);
  t2 := Runtime();
  PrintTo("*stdout*", "{\"kind\":\"", kind, "\",\"degree\":", deg, ",\"nr\":", nr,
    ",\"order\":\"", String(ord), "\",\"generators\":[", JoinStringsWithSeparator(gens, ","),
    "],\"structure\":\"", sd, "\",\"factors\":[", JoinStringsWithSeparator(cf, ","),
    "],\"gap_sd_ms\":", t1 - t0, ",\"gap_cs_ms\":", t2 - t1, "}\n");
end;
for d in [2..12] do
  for i in [1..NrTransitiveGroups(d)] do emit("T", d, i, TransitiveGroup(d, i)); od;
od;
for d in [2..40] do
  for i in [1..NrPrimitiveGroups(d)] do emit("P", d, i, PrimitiveGroup(d, i)); od;
od;
QUIT;
