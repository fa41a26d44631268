// JVMFLAGS: --illegal-access=permit --add-opens java.base/java.lang=ALL-UNNAMED --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-modules java.sql --add-opens=java.base/java.util=ALL-UNNAMED
import java.lang.reflect.InaccessibleObjectException;

/**
 * The module system's launcher options (--add-opens, --add-exports, --add-modules, and
 * --illegal-access, which java 17 ignores with a warning): deep reflection into an opened
 * package works, into another one it does not; an exported internal package can be used; the
 * options' properties are the module system's own and gone once it has read them.
 */
public class ModuleOptions {
    static String open(Class<?> c, String field) {
        try {
            c.getDeclaredField(field).setAccessible(true);
            return "opened";
        } catch (InaccessibleObjectException e) {
            return "inaccessible";
        } catch (NoSuchFieldException e) {
            return "no such field";
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("java.lang.String.value: " + open(String.class, "value"));
        System.out.println("java.util.ArrayList.elementData: " + open(java.util.ArrayList.class, "elementData"));
        System.out.println("java.io.File.path: " + open(java.io.File.class, "path"));
        Class<?> vm = Class.forName("jdk.internal.misc.VM");
        System.out.println("jdk.internal.misc.VM.initLevel(): " + vm.getMethod("initLevel").invoke(null));
        try {
            Class.forName("sun.nio.ch.Util").getMethod("getTemporaryDirectBuffer", int.class).invoke(null, 1);
            System.out.println("sun.nio.ch is exported");
        } catch (IllegalAccessException e) {
            System.out.println("sun.nio.ch is not exported: IllegalAccessException");
        }
        System.out.println("java.sql in the boot layer: " + ModuleLayer.boot().findModule("java.sql").isPresent());
        System.out.println("jdk.module.addopens.0: " + System.getProperty("jdk.module.addopens.0"));
    }
}
