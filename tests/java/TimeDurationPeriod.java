import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

public class TimeDurationPeriod {
    public static void main(String[] args) {
        Period p = Period.between(LocalDate.of(1990, 5, 17), LocalDate.of(2024, 3, 2));
        System.out.println("period=" + p + " years=" + p.getYears() + " months=" + p.getMonths() + " days=" + p.getDays() + " totalMonths=" + p.toTotalMonths());
        System.out.println("negative period=" + Period.between(LocalDate.of(2024, 3, 2), LocalDate.of(2024, 1, 31)) + " zero=" + Period.ZERO + " isNegative=" + Period.of(0, -1, 5).isNegative());
        System.out.println("period arith: " + Period.ofMonths(14).normalized() + " " + Period.of(1, 2, 3).plusDays(10).multipliedBy(2) + " " + Period.parse("P1Y2M3D").minusMonths(5) + " ofWeeks=" + Period.ofWeeks(3));
        System.out.println("add period to date: " + LocalDate.of(2024, 1, 31).plus(Period.ofMonths(1)) + " " + LocalDate.of(2023, 12, 31).plus(Period.of(0, 2, 1)));
        Duration d = Duration.ofHours(25).plusMinutes(61).plusSeconds(3661).plusMillis(1500);
        System.out.println("duration=" + d + " seconds=" + d.getSeconds() + " toMinutes=" + d.toMinutes() + " toHours=" + d.toHours() + " toDays=" + d.toDays() + " nano=" + d.getNano() + " toMillis=" + d.toMillis());
        System.out.println("parts: " + d.toDaysPart() + "d " + d.toHoursPart() + "h " + d.toMinutesPart() + "m " + d.toSecondsPart() + "s " + d.toMillisPart() + "ms");
        System.out.println("durations: " + Duration.ofSeconds(-90) + " " + Duration.ofMillis(1) + " " + Duration.ofNanos(1_500_000_001L) + " " + Duration.ZERO + " " + Duration.ofDays(2) + " " + Duration.ofSeconds(59, 999_999_999));
        System.out.println("parse: " + Duration.parse("PT1H30M") + " " + Duration.parse("P2DT3H4M5.5S").getSeconds() + " negated: " + Duration.ofMinutes(5).negated() + " abs: " + Duration.ofMinutes(-5).abs());
        System.out.println("arith: " + Duration.ofMinutes(90).multipliedBy(3) + " " + Duration.ofHours(1).dividedBy(7) + " " + Duration.ofHours(10).dividedBy(Duration.ofMinutes(45)) + " compare: " + Duration.ofSeconds(60).compareTo(Duration.ofMinutes(1)));
        LocalDateTime a = LocalDateTime.of(2024, 3, 10, 1, 30);
        LocalDateTime b = LocalDateTime.of(2024, 3, 12, 14, 15, 30);
        System.out.println("between datetimes: " + Duration.between(a, b) + " minutes=" + ChronoUnit.MINUTES.between(a, b) + " reversed=" + Duration.between(b, a));
        Instant i0 = Instant.ofEpochSecond(0);
        Instant i1 = Instant.ofEpochSecond(1_700_000_000L, 123_456_789);
        System.out.println("instants: " + i0 + " " + i1 + " plus 1 day: " + i1.plus(Duration.ofDays(1)) + " toEpochMilli: " + i1.toEpochMilli() + " between: " + Duration.between(i0, i1).toDays() + " days");
        System.out.println("Instant.parse: " + Instant.parse("2000-01-01T00:00:00Z").getEpochSecond() + " " + Instant.ofEpochMilli(-1) + " MIN year: " + Instant.EPOCH.minusSeconds(86400 * 365L));
        OffsetDateTime odt = OffsetDateTime.of(2024, 6, 1, 12, 0, 0, 0, ZoneOffset.ofHours(2));
        System.out.println("offset: " + odt + " toInstant: " + odt.toInstant() + " at UTC: " + odt.withOffsetSameInstant(ZoneOffset.UTC) + " at -05:30: " + odt.withOffsetSameInstant(ZoneOffset.ofHoursMinutes(-5, -30)));
        System.out.println("LocalDateTime.ofEpochSecond: " + LocalDateTime.ofEpochSecond(1_000_000_000L, 0, ZoneOffset.UTC) + " toEpochSecond: " + LocalDateTime.of(2038, 1, 19, 3, 14, 8).toEpochSecond(ZoneOffset.UTC));
        long totalMinutes = 0;
        for (int i = 1; i <= 100; i++) totalMinutes += Duration.ofSeconds(i * 37L).toMinutes();
        System.out.println("accumulated minutes: " + totalMinutes);
        try {
            Duration.ofSeconds(Long.MAX_VALUE).plusSeconds(1);
        } catch (ArithmeticException e) {
            System.out.println("overflow: " + e.getMessage());
        }
        System.out.println("units: " + ChronoUnit.DAYS.getDuration() + " " + ChronoUnit.HALF_DAYS.getDuration() + " " + ChronoUnit.WEEKS.isDateBased() + " " + ChronoUnit.HOURS.isTimeBased());
    }
}
