// The one list of import diagnostics: names unique and snake_case, each with a
// description, found back by name, and every one listed in docs/trace-import.md.

#include "profiler/importers/common/diagnostic_kinds.h"
#include "profiler/importers/common/import_diagnostics.h"

#include <QtTest>

#include <fstream>
#include <set>
#include <sstream>

using namespace npu::profiler;

class TestDiagnosticKinds : public QObject {
    Q_OBJECT
private slots:
    void listIsWellFormed() {
        std::set<std::string_view> names;
        size_t index = 0;
        for (const auto& d : allDiagnostics()) {
            QCOMPARE(static_cast<size_t>(d.kind), index++);  // the table is in enum order
            QVERIFY2(names.insert(d.name).second, std::string(d.name).c_str());
            for (char c : d.name) QVERIFY2((c >= 'a' && c <= 'z') || c == '_', std::string(d.name).c_str());
            QVERIFY(d.description.size() > 20);
            QCOMPARE(findDiagnostic(d.name), &d);
            QCOMPARE(&diagnosticInfo(d.kind), &d);
        }
        QVERIFY(names.size() >= 25);
        QVERIFY(!findDiagnostic("unmatched E"));  // the old free-text kinds are gone
    }

    void documented() {
        std::ifstream in(std::string(NPU_SOURCE_DIR) + "/docs/trace-import.md");
        QVERIFY(in);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string doc = ss.str();
        for (const auto& d : allDiagnostics())
            QVERIFY2(doc.find("| `" + std::string(d.name) + "` |") != std::string::npos, std::string(d.name).c_str());
    }

    void countsByKindWithListSeverity() {
        ImportDiagnostics diag;
        diag.add(DiagnosticKind::unmatched_end, [] { return std::string("first"); });
        diag.add(DiagnosticKind::unmatched_end, [] { return std::string("second"); });
        diag.add(DiagnosticKind::negative_size, 3, "OP_MEMORY row 7: size -512");
        QCOMPARE(diag.count(DiagnosticKind::unmatched_end), std::int64_t(2));
        QCOMPARE(diag.entries().at(DiagnosticKind::unmatched_end).example, std::string("first"));
        QCOMPARE(diag.total(), std::int64_t(5));
        QCOMPARE(diagnosticInfo(DiagnosticKind::unmatched_end).severity, Severity::warning);
        QCOMPARE(diagnosticInfo(DiagnosticKind::negative_size).severity, Severity::info);
    }
};

QTEST_GUILESS_MAIN(TestDiagnosticKinds)
#include "test_diagnostic_kinds.moc"
