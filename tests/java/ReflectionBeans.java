import java.beans.BeanInfo;
import java.beans.Expression;
import java.beans.IndexedPropertyDescriptor;
import java.beans.Introspector;
import java.beans.MethodDescriptor;
import java.beans.PropertyChangeEvent;
import java.beans.PropertyChangeSupport;
import java.beans.PropertyDescriptor;
import java.beans.Statement;
import java.beans.XMLDecoder;
import java.beans.XMLEncoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * JavaBeans, reflection as frameworks use it: Introspector's property and method descriptors,
 * Statement/Expression (which call through the JDK's MethodUtil trampoline, a class a JDK
 * class loader defines itself), XMLEncoder/XMLDecoder round trips of a bean graph, and
 * PropertyChangeSupport.
 */
public class ReflectionBeans {
    public static class Person {
        private String name;
        private int age;
        private boolean member;
        private String[] tags = new String[0];
        private List<Person> friends = new ArrayList<>();
        private final PropertyChangeSupport changes = new PropertyChangeSupport(this);

        public Person() { }
        public Person(String name, int age) { this.name = name; this.age = age; }
        public String getName() { return name; }
        public void setName(String name) { String old = this.name; this.name = name; changes.firePropertyChange("name", old, name); }
        public int getAge() { return age; }
        public void setAge(int age) { int old = this.age; this.age = age; changes.firePropertyChange("age", old, age); }
        public boolean isMember() { return member; }
        public void setMember(boolean member) { this.member = member; }
        public String[] getTags() { return tags; }
        public void setTags(String[] tags) { this.tags = tags; }
        public String getTags(int i) { return tags[i]; }
        public void setTags(int i, String t) { tags[i] = t; }
        public List<Person> getFriends() { return friends; }
        public void setFriends(List<Person> friends) { this.friends = friends; }
        public boolean isAdult() { return age >= 18; }
        public void addPropertyChangeListener(java.beans.PropertyChangeListener l) { changes.addPropertyChangeListener(l); }
        public void removePropertyChangeListener(java.beans.PropertyChangeListener l) { changes.removePropertyChangeListener(l); }
        public String greet(String other, int times) { return (name + " greets " + other + " ").repeat(times).trim(); }
        @Override public String toString() { return name + "(" + age + (member ? ", member" : "") + ", tags=" + Arrays.toString(tags) + ", friends=" + friends.stream().map(Person::getName).toList() + ")"; }
    }

    public static void main(String[] args) throws Exception {
        BeanInfo info = Introspector.getBeanInfo(Person.class, Object.class);
        PropertyDescriptor[] props = info.getPropertyDescriptors();
        Arrays.sort(props, Comparator.comparing(PropertyDescriptor::getName));
        for (PropertyDescriptor pd : props) {
            System.out.println("property " + pd.getName() + ": " + pd.getPropertyType().getSimpleName() + " read=" + (pd.getReadMethod() == null ? "-" : pd.getReadMethod().getName())
                + " write=" + (pd.getWriteMethod() == null ? "-" : pd.getWriteMethod().getName()) + (pd instanceof IndexedPropertyDescriptor ip ? " indexed=" + ip.getIndexedReadMethod().getName() : "")
                + " bound=" + pd.isBound());
        }
        List<String> methods = new ArrayList<>();
        for (MethodDescriptor md : info.getMethodDescriptors()) methods.add(md.getName() + "/" + md.getMethod().getParameterCount());
        methods.sort(null);
        System.out.println("methods: " + methods);
        System.out.println("event sets: " + Arrays.stream(info.getEventSetDescriptors()).map(e -> e.getName()).toList());
        System.out.println("decapitalize: " + Introspector.decapitalize("FooBar") + " " + Introspector.decapitalize("URL"));

        Person ann = new Person("Ann", 30);
        List<String> events = new ArrayList<>();
        ann.addPropertyChangeListener(e -> events.add(e.getPropertyName() + ":" + e.getOldValue() + "->" + e.getNewValue()));
        new Statement(ann, "setAge", new Object[] {31}).execute();
        new Statement(ann, "setName", new Object[] {"Anna"}).execute();
        new Statement(ann, "setName", new Object[] {"Anna"}).execute();
        System.out.println("statements: " + ann + " events=" + events);
        System.out.println("expression: " + new Expression(ann, "greet", new Object[] {"Bob", 2}).getValue()
            + " | " + new Expression(Person.class, "new", new Object[] {"Cy", 5}).getValue()
            + " | " + new Expression(Integer.class, "parseInt", new Object[] {"42"}).getValue());
        try {
            new Statement(ann, "noSuchMethod", new Object[0]).execute();
        } catch (NoSuchMethodException e) {
            System.out.println("missing method: NoSuchMethodException");
        }

        Person bob = new Person("Bob", 17);
        bob.setTags(new String[] {"x", "y"});
        ann.setMember(true);
        ann.getFriends().add(bob);
        ann.setTags(new String[] {"admin"});
        ByteArrayOutputStream xml = new ByteArrayOutputStream();
        try (XMLEncoder enc = new XMLEncoder(xml)) {
            enc.writeObject(ann);
            enc.writeObject(new ArrayList<>(List.of(1, 2, 3)));
        }
        String text = xml.toString();
        System.out.println("xml mentions: " + text.contains("<string>Anna</string>") + " " + text.contains("<int>31</int>") + " " + text.contains("ReflectionBeans$Person"));
        try (XMLDecoder dec = new XMLDecoder(new ByteArrayInputStream(xml.toByteArray()))) {
            Person back = (Person) dec.readObject();
            Object list = dec.readObject();
            System.out.println("decoded: " + back + " friend=" + back.getFriends().get(0) + " list=" + list);
        }
        PropertyChangeEvent e = new PropertyChangeEvent(ann, "age", 1, 2);
        System.out.println("event: " + e.getPropertyName() + " " + e.getOldValue() + " " + e.getNewValue());
    }
}
