// base/units: the one formatter. Binary sizes (GiB = 2^30), SI counts, a space before
// every unit, three significant digits.

#include "base/units.h"

#include <QTest>

using namespace npu;

class TestUnits : public QObject {
    Q_OBJECT
private slots:
    void durations() {
        QCOMPARE(units::duration(0), std::string("0"));
        QCOMPARE(units::duration(812), std::string("812 ns"));
        QCOMPARE(units::duration(15'300), std::string("15.3 µs"));
        QCOMPARE(units::duration(4'210'000), std::string("4.21 ms"));
        QCOMPARE(units::duration(1.5e9), std::string("1.50 s"));
        QCOMPARE(units::duration(-2'500), std::string("-2.50 µs"));
    }
    void bytesAreBinary() {
        QCOMPARE(units::bytes(512), std::string("512 B"));
        QCOMPARE(units::bytes(3.5 * 1024 * 1024), std::string("3.50 MiB"));
        // 64 GiB of HBM is 68.7 GB: the same capacity reads the same everywhere.
        QCOMPARE(units::bytes(68'719'476'736.0), std::string("64.0 GiB"));
        QCOMPARE(units::bytes(2.0 * 1024 * 1024 * 1024 * 1024), std::string("2.00 TiB"));
        QCOMPARE(units::decimalBytes(68'719'476'736.0), std::string("68.7 GB"));
    }
    void countsAndFlops() {
        QCOMPARE(units::count(512), std::string("512"));
        QCOMPARE(units::count(12'345), std::string("12.3 k"));
        QCOMPARE(units::count(6.74e9), std::string("6.74 G"));
        QCOMPARE(units::count(2.5), std::string("2.50"));
        QCOMPARE(units::flops(8192), std::string("8192 FLOP"));
        QCOMPARE(units::flops(0), std::string("0 FLOP"));
        QCOMPARE(units::flops(1.23e15), std::string("1.23 PFLOP"));
        QCOMPARE(units::percent(0.123), std::string("12.3 %"));
    }
    void axisUnits() {
        QCOMPARE(units::byteUnitFor(3e9).suffix, std::string_view("GiB"));
        QCOMPARE(units::byteUnitFor(1000).suffix, std::string_view("B"));
        QCOMPARE(units::timeUnitFor(2e6).divisor, 1e6);
    }
};

QTEST_APPLESS_MAIN(TestUnits)
#include "test_units.moc"
