// base/expected: an error's code travels with it, so a cancel is told apart from a
// failure without reading the message.

#include "base/expected.h"

#include <QTest>

using namespace npu;

namespace {

Expected<int> parse(bool cancel) {
    if (cancel) return cancelledError("import cancelled");
    return makeError("x.json: line 3: expected a number", ErrorCode::bad_input);
}

}  // namespace

class TestExpected : public QObject {
    Q_OBJECT
private slots:
    void codesTravelWithErrors() {
        const auto c = parse(true);
        QVERIFY(!c);
        QVERIFY(c.cancelled());
        QCOMPARE(c.message(), std::string("import cancelled"));
        const auto b = parse(false);
        QVERIFY(!b.cancelled());
        QCOMPARE(b.error().code, ErrorCode::bad_input);
        QCOMPARE(errorCodeName(b.error().code), std::string_view("bad_input"));
        const Status s = makeError("plain");
        QCOMPARE(s.error().code, ErrorCode::failed);
        QVERIFY(!s.cancelled());
        const Expected<int> ok = 3;
        QVERIFY(!ok.cancelled());
    }
};

QTEST_APPLESS_MAIN(TestExpected)
#include "test_expected.moc"
