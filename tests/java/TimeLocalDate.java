import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Month;
import java.time.Year;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;

public class TimeLocalDate {
    public static void main(String[] args) {
        LocalDate d = LocalDate.of(2024, 2, 28);
        System.out.println("date=" + d + " plusDays(1)=" + d.plusDays(1) + " plusDays(2)=" + d.plusDays(2) + " plusMonths(1)=" + d.plusMonths(1) + " plusYears(1)=" + d.plusYears(1));
        System.out.println("minusDays(59)=" + d.minusDays(59) + " plusWeeks(52)=" + d.plusWeeks(52) + " withDayOfMonth(1)=" + d.withDayOfMonth(1) + " withMonth(12)=" + d.withMonth(12));
        LocalDate jan31 = LocalDate.of(2023, 1, 31);
        System.out.println("Jan31+1M=" + jan31.plusMonths(1) + " leap Jan31+1M=" + jan31.plusYears(1).plusMonths(1) + " Feb29+1Y=" + LocalDate.of(2024, 2, 29).plusYears(1));
        System.out.println("dayOfWeek=" + d.getDayOfWeek() + " dayOfYear=" + d.getDayOfYear() + " lengthOfMonth=" + d.lengthOfMonth() + " lengthOfYear=" + d.lengthOfYear() + " isLeapYear=" + d.isLeapYear());
        int[] years = {1900, 2000, 2023, 2024, 2100, 2400, 1600, 1};
        StringBuilder sb = new StringBuilder();
        for (int y : years) sb.append(y).append('=').append(Year.isLeap(y)).append(' ');
        System.out.println("leap years: " + sb.toString().trim());
        for (int m = 1; m <= 12; m++) {
            YearMonth ym = YearMonth.of(2024, m);
            System.out.print(ym + ":" + ym.lengthOfMonth() + (m < 12 ? " " : "\n"));
        }
        System.out.println("Feb 2023 length=" + YearMonth.of(2023, 2).lengthOfMonth() + " Feb 1900=" + YearMonth.of(1900, Month.FEBRUARY).lengthOfMonth() + " atEndOfMonth=" + YearMonth.of(2023, 2).atEndOfMonth());
        LocalDate epoch = LocalDate.of(1970, 1, 1);
        System.out.println("toEpochDay: " + d.toEpochDay() + " ofEpochDay(19000)=" + LocalDate.ofEpochDay(19000) + " ofYearDay(2024,366)=" + LocalDate.ofYearDay(2024, 366) + " epoch dow=" + epoch.getDayOfWeek());
        System.out.println("between days: " + ChronoUnit.DAYS.between(epoch, d) + " weeks: " + ChronoUnit.WEEKS.between(epoch, d) + " months: " + ChronoUnit.MONTHS.between(epoch, d) + " years: " + ChronoUnit.YEARS.between(epoch, d));
        System.out.println("until: " + LocalDate.of(2000, 1, 1).until(LocalDate.of(2024, 7, 4)) + " days=" + LocalDate.of(2000, 1, 1).until(LocalDate.of(2024, 7, 4), ChronoUnit.DAYS));
        System.out.println("compare: " + d.isBefore(jan31) + " " + d.isAfter(jan31) + " " + d.equals(LocalDate.parse("2024-02-28")) + " compareTo=" + d.compareTo(jan31));
        System.out.println("adjusters: firstDayOfMonth=" + d.with(TemporalAdjusters.firstDayOfMonth()) + " lastDayOfMonth=" + d.with(TemporalAdjusters.lastDayOfMonth())
            + " nextMonday=" + d.with(TemporalAdjusters.next(DayOfWeek.MONDAY)) + " firstInMonth(FRIDAY)=" + d.with(TemporalAdjusters.firstInMonth(DayOfWeek.FRIDAY))
            + " lastInMonth(SUNDAY)=" + d.with(TemporalAdjusters.lastInMonth(DayOfWeek.SUNDAY)));
        for (DayOfWeek dow : DayOfWeek.values()) System.out.print(dow + "(" + dow.getValue() + ")+3=" + dow.plus(3) + " ");
        System.out.println();
        System.out.println("Month: " + Month.FEBRUARY.length(true) + " " + Month.FEBRUARY.length(false) + " " + Month.of(12) + " " + Month.JANUARY.minus(1) + " firstDayOfYear(Mar, leap)=" + Month.MARCH.firstDayOfYear(true));
        LocalDateTime dt = LocalDateTime.of(2024, 12, 31, 23, 59, 30, 123_000_000);
        System.out.println("datetime=" + dt + " plusSeconds(45)=" + dt.plusSeconds(45) + " plusHours(1)=" + dt.plusHours(1) + " truncated=" + dt.truncatedTo(ChronoUnit.HOURS));
        System.out.println("ISO_LOCAL_DATE_TIME=" + dt.format(DateTimeFormatter.ISO_LOCAL_DATE_TIME) + " ISO_LOCAL_DATE=" + dt.format(DateTimeFormatter.ISO_LOCAL_DATE) + " ISO_DATE=" + d.format(DateTimeFormatter.ISO_DATE)
            + " BASIC_ISO_DATE=" + d.format(DateTimeFormatter.BASIC_ISO_DATE) + " ISO_ORDINAL_DATE=" + d.format(DateTimeFormatter.ISO_ORDINAL_DATE) + " ISO_WEEK_DATE=" + d.format(DateTimeFormatter.ISO_WEEK_DATE));
        DateTimeFormatter custom = DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss.SSS");
        System.out.println("custom pattern: " + dt.format(custom) + " parse back: " + LocalDateTime.parse("2021/06/15 08:05:09.007", custom));
        System.out.println("parse ISO: " + LocalDateTime.parse("2020-02-29T12:34:56") + " " + LocalTime.parse("23:59:59.999999999") + " " + LocalDate.parse("20240101", DateTimeFormatter.BASIC_ISO_DATE));
        LocalTime t = LocalTime.of(22, 45);
        System.out.println("time: " + t + " plusHours(3)=" + t.plusHours(3) + " minusMinutes(1000)=" + t.minusMinutes(1000) + " toSecondOfDay=" + t.toSecondOfDay() + " MIDNIGHT=" + LocalTime.MIDNIGHT + " NOON=" + LocalTime.NOON + " MAX=" + LocalTime.MAX);
        try {
            LocalDate.of(2023, 2, 29);
        } catch (java.time.DateTimeException e) {
            System.out.println("invalid date: " + e.getMessage());
        }
        try {
            LocalDate.parse("2023-13-01");
        } catch (java.time.format.DateTimeParseException e) {
            System.out.println("parse error: " + e.getMessage());
        }
        int fridays13 = 0;
        StringBuilder f13 = new StringBuilder();
        for (LocalDate x = LocalDate.of(2020, 1, 13); x.getYear() < 2026; x = x.plusMonths(1)) {
            if (x.getDayOfWeek() == DayOfWeek.FRIDAY) { fridays13++; f13.append(x).append(' '); }
        }
        System.out.println("Friday 13ths 2020-2025: " + fridays13 + " " + f13.toString().trim());
        System.out.println("datesUntil count: " + LocalDate.of(2024, 1, 1).datesUntil(LocalDate.of(2025, 1, 1)).count() + " weekends: "
            + LocalDate.of(2024, 1, 1).datesUntil(LocalDate.of(2025, 1, 1)).filter(x -> x.getDayOfWeek().getValue() >= 6).count());
    }
}
