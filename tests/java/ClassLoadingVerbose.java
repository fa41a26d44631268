import java.lang.management.*;

/** ClassLoadingMXBean.setVerbose (sun.management.ClassLoadingImpl.setVerboseClass) and
 *  isVerbose: -verbose:class switched on and off at run time. Nothing is loaded while it is
 *  on (the log lines carry times). */
public class ClassLoadingVerbose {
    public static void main(String[] args) {
        ClassLoadingMXBean bean = ManagementFactory.getClassLoadingMXBean();
        boolean before = bean.isVerbose();
        bean.setVerbose(true);
        boolean on = bean.isVerbose();
        bean.setVerbose(false);
        boolean off = bean.isVerbose();
        System.out.println("before: " + before);
        System.out.println("after setVerbose(true): " + on);
        System.out.println("after setVerbose(false): " + off);
        System.out.println("loaded some: " + (bean.getLoadedClassCount() > 0));
    }
}
