package dev.hyperterse.connector.postgres;

import dev.hyperterse.connector.sql.SqlValues;
import io.vertx.pgclient.data.Cidr;
import io.vertx.pgclient.data.Inet;
import io.vertx.pgclient.data.Interval;
import io.vertx.pgclient.data.Money;

/** JSON for the PostgreSQL client's own value classes; null for the ones left to {@code toString()}. */
final class PgResultValues {

    private PgResultValues() {
    }

    static Object special(Object value) {
        if (value instanceof Interval) {
            return iso((Interval) value);
        }
        if (value instanceof Money) {
            return SqlValues.decimal(((Money) value).bigDecimalValue());
        }
        if (value instanceof Inet) {
            Inet inet = (Inet) value;
            String address = inet.getAddress().getHostAddress();
            return inet.getNetmask() == null ? address : address + "/" + inet.getNetmask();
        }
        if (value instanceof Cidr) {
            Cidr cidr = (Cidr) value;
            return cidr.getAddress().getHostAddress() + "/" + cidr.getNetmask();
        }
        return null;
    }

    /** {@code P1Y2M3DT4H5M6.5S}; {@code PT0S} for an empty interval. */
    static String iso(Interval i) {
        StringBuilder date = new StringBuilder();
        if (i.getYears() != 0) {
            date.append(i.getYears()).append('Y');
        }
        if (i.getMonths() != 0) {
            date.append(i.getMonths()).append('M');
        }
        if (i.getDays() != 0) {
            date.append(i.getDays()).append('D');
        }
        StringBuilder time = new StringBuilder();
        if (i.getHours() != 0) {
            time.append(i.getHours()).append('H');
        }
        if (i.getMinutes() != 0) {
            time.append(i.getMinutes()).append('M');
        }
        if (i.getSeconds() != 0 || i.getMicroseconds() != 0) {
            long micros = i.getSeconds() * 1_000_000L + i.getMicroseconds();
            time.append(java.math.BigDecimal.valueOf(micros, 6).stripTrailingZeros().toPlainString()).append('S');
        }
        if (date.length() == 0 && time.length() == 0) {
            return "PT0S";
        }
        return "P" + date + (time.length() == 0 ? "" : "T" + time);
    }
}
