// The one registry of diagnostics (rooflint/diagnostics.h) against the doc pages: every entry has its
// page docs/diagnostics/NAME.md, titled with its name, whose first sentence is the entry's summary;
// every page is an entry; docs/analyzer.md's table lists each analyzer diagnostic with its level.
// std only: the registry must stay includable without LLVM or CUDA (the verifier includes it).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "rooflint/files/diagnostics.h"

namespace fs = std::filesystem;
using namespace rooflint;

namespace {

const fs::path Root = ROOFLINT_SOURCE_DIR;

std::string read(const fs::path &P) {
  std::ifstream In(P);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// The first sentence of the page's first paragraph after its title: up to the first ". " or the
/// paragraph's end, lines joined with spaces.
std::string firstSentence(const std::string &Page) {
  std::istringstream In(Page);
  std::string Line, Para;
  while (std::getline(In, Line)) {
    if (Line.rfind("#", 0) == 0) continue;
    if (Line.find_first_not_of(" \t") == std::string::npos) {
      if (!Para.empty()) break;
      continue;
    }
    Para += (Para.empty() ? "" : " ") + Line;
  }
  const std::size_t End = Para.find(". ");
  return End == std::string::npos ? Para : Para.substr(0, End + 1);
}

}  // namespace

TEST(DiagnosticsRegistry, EveryEntryHasItsPageWithTheSummaryAsFirstSentence) {
  for (const diagnostics::diagnostic &D : diagnostics::all) {
    const fs::path Page = Root / D.doc;
    ASSERT_TRUE(fs::exists(Page)) << D.name << ": no page " << D.doc;
    EXPECT_EQ(Page.filename().string(), std::string(D.name) + ".md");
    const std::string Text = read(Page);
    EXPECT_EQ(Text.substr(0, Text.find('\n')), "# " + std::string(D.name)) << D.doc;
    EXPECT_EQ(firstSentence(Text), D.summary) << D.doc;
  }
}

TEST(DiagnosticsRegistry, EveryPageIsAnEntry) {
  std::set<std::string> Pages;
  for (const auto &E : fs::directory_iterator(Root / "docs/diagnostics"))
    if (E.path().extension() == ".md") Pages.insert(E.path().stem().string());
  EXPECT_EQ(Pages.size(), diagnostics::all.size());
  for (const std::string &P : Pages) EXPECT_NE(diagnostics::find(P), nullptr) << "docs/diagnostics/" << P << ".md";
}

TEST(DiagnosticsRegistry, TheAnalyzerDocsTableListsEachAnalyzerDiagnosticWithItsLevel) {
  const std::string Doc = read(Root / "docs/analyzer.md");
  for (const diagnostics::diagnostic &D : diagnostics::all) {
    if (!diagnostics::reports(D.reported_by, diagnostics::tool::analyzer)) continue;
    const std::string Row = "| `" + std::string(D.name) + "` | " + std::string(diagnostics::name(D.default_level)) + " |";
    EXPECT_NE(Doc.find(Row), std::string::npos) << Row;
  }
}

TEST(DiagnosticsRegistry, FindsByNameAndCountsPerTool) {
  ASSERT_NE(diagnostics::find("rooflint-expectation"), nullptr);
  EXPECT_EQ(diagnostics::find("rooflint-expectation")->default_level, diagnostics::level::warning);
  EXPECT_EQ(diagnostics::find("rooflint-expected-bound"), nullptr);  // the verifier's old name is gone
  // 12 analyzer diagnostics (rooflint-expectation is both tools', rooflint-reread, rooflint-traffic-bound,
  // rooflint-not-predicted), 18 of the
  // verifier (with rooflint-binding, rooflint-precision, rooflint-not-measured and rooflint-reference)
  // plus that one.
  EXPECT_EQ(diagnostics::count(diagnostics::tool::analyzer), 13u);  // and rooflint-size-binding
  EXPECT_EQ(diagnostics::count(diagnostics::tool::verifier), 25u);  // 19 + rooflint-verify -- program: launches, not-launched, regression, baseline, launch-shape; + line-traffic
}
