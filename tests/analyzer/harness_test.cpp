// The -verify harness itself (test_harness.h): a source's expected-* comments against what was printed.
// Each kind of mismatch is shown failing: a diagnostic missing, one extra, on the wrong line or column,
// with other text, level or name; and the directives' own mistakes. The printed diagnostics are written
// by hand here, so the harness is tested apart from the analyzer; the last test runs the analyzer.
#include <gtest/gtest.h>

#include "test_harness.h"

using namespace rooflint::analyzer::testing;

namespace {

const std::string Main = "/rooflint-test/input.cu";

PrintedDiagnostic printed(const std::string &Level, unsigned Line, unsigned Column, const std::string &Text) {
  return {Level, Main, Line, Column, Text};
}

AnalysisRun run(std::vector<PrintedDiagnostic> Printed) {
  AnalysisRun R;
  R.MainFile = Main;
  R.Printed = std::move(Printed);
  return R;
}

// Line 2 holds the access; the directives stand on lines 1 and 2.
const std::string Source = "// expected-warning@+1:5 {{stride 2 [rooflint-uncoalesced]}}\n"
                           "    y[2 * i] = 0;  // expected-note {{the coefficient is '2'}}\n";

const AnalysisRun Matching = run({printed("warning", 2, 5, "stride 2 [rooflint-uncoalesced]"),
                                  printed("note", 2, 5, "the coefficient is '2'")});

}  // namespace

TEST(VerifyHarness, PassesWhenEveryDiagnosticIsExpectedAndEveryExpectationMet) {
  EXPECT_EQ(verify(Matching, Source), std::vector<std::string>{});
}

TEST(VerifyHarness, FailsOnAMissingDiagnostic) {
  const AnalysisRun R = run({printed("warning", 2, 5, "stride 2 [rooflint-uncoalesced]")});
  EXPECT_EQ(verify(R, Source), std::vector<std::string>{"line 2: expected note not seen: {{the coefficient is '2'}}"});
}

TEST(VerifyHarness, FailsOnAnExtraDiagnostic) {
  AnalysisRun R = Matching;
  R.Printed.push_back(printed("remark", 1, 1, "kernel 'k' is memory-bound [rooflint-bound]"));
  EXPECT_EQ(verify(R, Source),
            std::vector<std::string>{"line 1, column 1: remark seen but not expected: kernel 'k' is memory-bound "
                                     "[rooflint-bound]"});
}

TEST(VerifyHarness, FailsOnADiagnosticInAnotherFileOrWithoutALocation) {
  AnalysisRun R = Matching;
  R.Printed.push_back({"warning", "/rooflint-test/cuda_mock.h", 3, 7, "in a header"});
  R.Printed.push_back({"remark", "", 0, 0, "nowhere"});
  EXPECT_EQ(verify(R, Source), (std::vector<std::string>{"cuda_mock.h:3, column 7: warning seen but not expected: "
                                                         "in a header",
                                                         "(no location): remark seen but not expected: nowhere"}));
}

TEST(VerifyHarness, FailsOnTheWrongLineAndSaysWhereItWas) {
  const AnalysisRun R = run({printed("warning", 3, 5, "stride 2 [rooflint-uncoalesced]"),
                             printed("note", 2, 5, "the coefficient is '2'")});
  EXPECT_EQ(verify(R, Source),
            (std::vector<std::string>{"line 2, column 5: expected warning not seen: {{stride 2 "
                                      "[rooflint-uncoalesced]}} (seen at line 3, column 5)",
                                      "line 3, column 5: warning seen but not expected: stride 2 "
                                      "[rooflint-uncoalesced]"}));
}

TEST(VerifyHarness, FailsOnTheWrongColumnWhereOneIsWritten) {
  const AnalysisRun R = run({printed("warning", 2, 6, "stride 2 [rooflint-uncoalesced]"),
                             printed("note", 2, 9, "the coefficient is '2'")});  // no column written: any
  const auto Mismatches = verify(R, Source);
  ASSERT_EQ(Mismatches.size(), 2u);
  EXPECT_EQ(Mismatches[0], "line 2, column 5: expected warning not seen: {{stride 2 [rooflint-uncoalesced]}} (seen "
                           "at line 2, column 6)");
}

TEST(VerifyHarness, FailsOnOtherTextEvenWhenTheExpectedTextIsAPart) {
  // The whole message is compared (clang's -verify would accept a part): "stride 2" alone is not enough.
  const AnalysisRun R = run({printed("warning", 2, 5, "stride 2 [rooflint-uncoalesced] and more"),
                             printed("note", 2, 5, "the coefficient is '2'")});
  EXPECT_EQ(verify(R, Source),
            (std::vector<std::string>{"line 2, column 5: expected warning not seen: {{stride 2 "
                                      "[rooflint-uncoalesced]}}",
                                      "line 2, column 5: warning seen but not expected: stride 2 "
                                      "[rooflint-uncoalesced] and more"}));
}

TEST(VerifyHarness, FailsOnAnotherNameOrLevel) {
  const AnalysisRun OtherName = run({printed("warning", 2, 5, "stride 2 [rooflint-reread]"),
                                     printed("note", 2, 5, "the coefficient is '2'")});
  EXPECT_EQ(verify(OtherName, Source).size(), 2u);
  const AnalysisRun AsError = run({printed("error", 2, 5, "stride 2 [rooflint-uncoalesced]"),
                                   printed("note", 2, 5, "the coefficient is '2'")});
  EXPECT_EQ(verify(AsError, Source),
            (std::vector<std::string>{"line 2, column 5: expected warning not seen: {{stride 2 "
                                      "[rooflint-uncoalesced]}}",
                                      "line 2, column 5: error seen but not expected: stride 2 "
                                      "[rooflint-uncoalesced]"}));
}

TEST(VerifyHarness, CountsEachDiagnosticOnce) {
  // Two expectations of the same text need two diagnostics.
  const std::string Twice = "x;  // expected-warning {{w}} expected-warning {{w}}\n";
  EXPECT_EQ(verify(run({printed("warning", 1, 1, "w")}), Twice),
            std::vector<std::string>{"line 1: expected warning not seen: {{w}}"});
  EXPECT_TRUE(verify(run({printed("warning", 1, 1, "w"), printed("warning", 1, 4, "w")}), Twice).empty());
}

TEST(VerifyHarness, ReadsRelativeAbsoluteAndAnyLocations) {
  const Expectations E = parseExpectations("a\n"
                                           "b  // expected-error@-1 {{up}} expected-remark@5 {{abs}}\n"
                                           "// expected-note@* {{anywhere}} expected-note@+2:7 {{down}}\n");
  ASSERT_TRUE(E.Errors.empty()) << E.Errors[0];
  ASSERT_EQ(E.Diagnostics.size(), 4u);
  EXPECT_EQ(E.Diagnostics[0].Line, 1u);
  EXPECT_EQ(E.Diagnostics[0].Level, "error");
  EXPECT_EQ(E.Diagnostics[1].Line, 5u);
  EXPECT_EQ(E.Diagnostics[2].Line, 0u);  // any
  EXPECT_EQ(E.Diagnostics[3].Line, 5u);
  EXPECT_EQ(E.Diagnostics[3].Column, 7u);
  EXPECT_EQ(E.Diagnostics[3].Text, "down");
  EXPECT_EQ(E.Diagnostics[3].DirectiveLine, 3u);
  // '@*' matches a diagnostic anywhere, even one without a location.
  EXPECT_TRUE(verify(run({{"note", "", 0, 0, "x"}}), "// expected-note@* {{x}}\n").empty());
}

TEST(VerifyHarness, TakesNamesThatContainTheWordForNamesNotDirectives) {
  const Expectations E = parseExpectations("// the check rooflint-expected-bound, an unexpected-warning\n"
                                           "// expected-warning {{a [rooflint-expected-bound]}}\n");
  ASSERT_TRUE(E.Errors.empty()) << E.Errors[0];
  ASSERT_EQ(E.Diagnostics.size(), 1u);  // line 1 is prose
  EXPECT_EQ(E.Diagnostics[0].Text, "a [rooflint-expected-bound]");
  EXPECT_EQ(E.Diagnostics[0].Line, 2u);
}

TEST(VerifyHarness, RejectsMalformedDirectives) {
  EXPECT_EQ(verify(run({}), "// expected-warnig {{w}}\n"),
            std::vector<std::string>{"line 1: malformed directive: unknown kind 'expected-warnig' (error, warning, "
                                     "remark, note or no-diagnostics)"});
  EXPECT_EQ(verify(run({}), "// expected-warning@+ {{w}}\n"),
            std::vector<std::string>{"line 1: malformed directive: a number must follow '@+' or '@-'"});
  EXPECT_EQ(verify(run({}), "// expected-warning@-1 {{w}}\n"),
            std::vector<std::string>{"line 1: malformed directive: '@-1' points above the first line"});
  EXPECT_EQ(verify(run({}), "// expected-warning w\n"),
            std::vector<std::string>{"line 1: malformed directive: the expected text must follow in {{...}}"});
  EXPECT_EQ(verify(run({}), "// expected-warning@+1: {{w}}\n"),
            std::vector<std::string>{"line 1: malformed directive: a column (1 or more) must follow ':'"});
}

TEST(VerifyHarness, WantsADirectiveInEveryFile) {
  EXPECT_EQ(verify(run({}), "int x;\n"),
            std::vector<std::string>{"no expected-* directive in the file (write expected-no-diagnostics where it "
                                     "must print nothing)"});
  EXPECT_TRUE(verify(run({}), "// expected-no-diagnostics\n").empty());
  EXPECT_EQ(verify(run({printed("warning", 1, 1, "w")}), "// expected-no-diagnostics\n"),
            std::vector<std::string>{"line 1, column 1: warning seen but not expected: w"});
  EXPECT_EQ(verify(run({}), "// expected-no-diagnostics\n// expected-warning {{w}}\n"),
            std::vector<std::string>{"expected-no-diagnostics and expected-* directives in one file"});
}

// With the analyzer: an input whose directive is changed by one character, or whose code moves a line,
// fails; the input as written passes (Inputs/Input.PrintsWhatItsCommentsExpect).
TEST(VerifyHarness, CatchesAChangedExpectationOnARealInput) {
  const std::string Code = readInput("robust-overflow.cu");
  const AnalysisRun R = analyze(Code, "robust-overflow.cu");
  ASSERT_TRUE(verify(R, Code).empty());
  std::string Changed = Code;
  const size_t At = Changed.find("stride -2 elements");
  ASSERT_NE(At, std::string::npos);
  Changed.replace(At, 9, "stride -3");
  const auto Mismatches = verify(R, Changed);
  ASSERT_EQ(Mismatches.size(), 2u);
  EXPECT_EQ(Mismatches[0].rfind("line 13, column 3: expected warning not seen: {{store through 'c' is not unit-stride "
                                "in 'threadIdx.x'; stride -3 elements",
                                0),
            0u)
      << Mismatches[0];
  EXPECT_EQ(Mismatches[1].rfind("line 13, column 3: warning seen but not expected: store through 'c'", 0), 0u)
      << Mismatches[1];
  // A blank line above the kernels: the source's own directives move with it and still hold; checked
  // against the unmoved text, every diagnostic is a line lower than its directive says.
  const std::string Moved = "\n" + Code;
  const AnalysisRun Shifted = analyze(Moved, "robust-overflow.cu");
  EXPECT_TRUE(verify(Shifted, Moved).empty());
  EXPECT_EQ(verify(Shifted, Code).size(), 8u);  // 4 expected not seen (2 warnings, 2 notes), 4 seen unexpected
}
