// Plays the first legal move (Java, standard library only; run it as
// `java FirstLegal.java`): answers hello with ready, every turn with index 0,
// and exits on bye or at the end of its input.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class FirstLegal {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        Pattern id = Pattern.compile("\"id\":(\\d+)");
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith("{\"type\":\"hello\"")) {
                System.out.println("{\"type\":\"ready\",\"name\":\"first-legal-java\"}");
            } else if (line.startsWith("{\"type\":\"turn\"")) {
                Matcher m = id.matcher(line);
                m.find();
                System.out.println("{\"type\":\"move\",\"id\":" + m.group(1) + ",\"index\":0}");
            } else if (line.startsWith("{\"type\":\"bye\"")) {
                return;
            }
            System.out.flush();
        }
    }
}
