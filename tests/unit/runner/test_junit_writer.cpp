// The JUnit XML of a suite run, byte for byte: the layout QXmlStreamWriter's
// auto-formatting gave it before the runner dropped Qt (CI keeps these files and diffs
// them), with escaping in attributes (quotes, newlines) and in text.

#include "runner/suites/junit_writer.h"

#include <QTest>

using namespace npu;
using regression::CaseResult;
using regression::CaseStatus;
using regression::MetricResult;
using regression::Verdict;

class TestJunitWriter : public QObject {
    Q_OBJECT
private slots:
    void emptySuite() {
        QCOMPARE(runner::junitXml("ci", {}),
                 std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                             "<testsuites>\n"
                             "    <testsuite name=\"ci\" tests=\"0\" failures=\"0\" errors=\"0\" time=\"0.000\"/>\n"
                             "</testsuites>\n"));
    }

    void passFailError() {
        CaseResult quiet;
        quiet.name = "quiet";
        quiet.wallMs = 1234.5678;
        CaseResult fresh;
        fresh.name = "fresh";
        fresh.wallMs = 2;
        MetricResult added;
        added.path = "step_time_ms";
        added.now = 812.4;
        added.verdict = Verdict::newMetric;
        fresh.metrics = {added};
        CaseResult slow;
        slow.name = "slow<&>";
        slow.status = CaseStatus::fail;
        slow.wallMs = 10;
        MetricResult moved;
        moved.path = "step_time_ms";
        moved.baseline = 100;
        moved.now = 104.1;
        moved.verdict = Verdict::regression;
        moved.reason = "+4.1 % > 2 %";
        MetricResult within;
        within.path = "peak_bytes";
        within.baseline = 6e10;
        within.now = 6e10;
        slow.metrics = {moved, within};
        CaseResult broken;
        broken.name = "broken";
        broken.status = CaseStatus::error;
        broken.error = "cannot read \"x.json\"\n\tline 2";
        const std::string expected =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites>\n"
            "    <testsuite name=\"s&quot;1\" tests=\"4\" failures=\"1\" errors=\"1\" time=\"1.247\">\n"
            "        <testcase classname=\"s&quot;1\" name=\"quiet\" time=\"1.235\"/>\n"
            "        <testcase classname=\"s&quot;1\" name=\"fresh\" time=\"0.002\">\n"
            "            <system-out>step_time_ms: new now 812.4\n</system-out>\n"
            "        </testcase>\n"
            "        <testcase classname=\"s&quot;1\" name=\"slow&lt;&amp;&gt;\" time=\"0.010\">\n"
            "            <failure message=\"step_time_ms: +4.1 % &gt; 2 %\">step_time_ms: regression baseline 100 now "
            "104.1 (+4.1 % &gt; 2 %)\npeak_bytes: pass baseline 6e+10 now 6e+10\n</failure>\n"
            "        </testcase>\n"
            "        <testcase classname=\"s&quot;1\" name=\"broken\" time=\"0.000\">\n"
            "            <error message=\"cannot read &quot;x.json&quot;&#10;&#9;line 2\"></error>\n"
            "        </testcase>\n"
            "    </testsuite>\n"
            "</testsuites>\n";
        QCOMPARE(runner::junitXml("s\"1", {quiet, fresh, slow, broken}), expected);
    }
};

QTEST_GUILESS_MAIN(TestJunitWriter)
#include "test_junit_writer.moc"
