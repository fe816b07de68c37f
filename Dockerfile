# Hyperterse for the JVM: a two-stage image.
#   docker build -t hyperterse .
#   docker run --rm -p 8080:8080 hyperterse                       # serves the SQLite quickstart
#   docker run --rm -p 8080:8080 --user "$(id -u):$(id -g)" -v "$PWD/my-project:/project" \
#     hyperterse start /project --host 0.0.0.0
#
# TypeScript is stripped natively by swc where swc4j has a library for the image's platform (the
# build stage's Maven picks it by the platform it runs on), else by the portable TypeScript
# compiler: swc4j has none for linux/arm64, so an image built on an ARM machine (Apple Silicon)
# loads .ts files more slowly; --platform linux/amd64 gives the native path.
#
# Stage 1 builds the fat jar with Maven and fetches the Graal compiler jars; stage 2 is a JRE 25
# image running as a non-root user. It trains a start-up cache (JDK 25's AOT cache) on the
# quickstart at build time and starts with it, about halving a start's CPU; scripts then run in
# GraalJS's interpreter. -e HYPERTERSE_SCRIPTS_COMPILER=graal switches GraalJS's optimizing
# compiler on instead (faster computing scripts once warm; the JVM then maps no start-up cache).

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
# dependencies first, so editing the sources does not download them again
COPY pom.xml .
RUN mvn -B -q -DskipTests dependency:resolve dependency:resolve-plugins
COPY conf conf
COPY src src
RUN mvn -B -q -DskipTests package
# the optimizing compiler for GraalJS: the same 25.0.x as the GraalJS in the jar
RUN for artifact in org.graalvm.compiler:compiler org.graalvm.sdk:collections org.graalvm.sdk:word \
                    org.graalvm.truffle:truffle-compiler; do \
      mvn -B -q dependency:copy -Dartifact="$artifact:25.0.3" -DoutputDirectory=/graal-compiler; \
    done

FROM eclipse-temurin:25-jre
# a fixed numeric user, so Kubernetes' runAsNonRoot can check it (deploy/kubernetes runs as 10001)
RUN groupadd --system --gid 10001 hyperterse \
 && useradd --system --uid 10001 --gid hyperterse --home-dir /app --shell /usr/sbin/nologin hyperterse
WORKDIR /app
# the server and, beside it, its add-ons: the cluster manager (start --cluster; docs/cluster.md)
# and the semantic ranking's models (search; docs/project-format.md#search)
COPY --from=build /src/target/hyperterse.jar /src/target/hyperterse-cluster.jar /src/target/hyperterse-semantic.jar /app/
COPY --from=build /graal-compiler /app/graal-compiler
# the examples, so the image serves something by itself; docker-compose.yml mounts them from the
# host instead, so editing one needs no rebuild
COPY tools-examples /app/tools-examples
COPY deploy/docker/entrypoint.sh /app/entrypoint.sh
# PORT is the listen port (when neither --port nor the project's server.port sets one) and the port
# the health check probes. user.home: Truffle and JNA unpack native helpers under ~/.cache, and the
# home folder is not writable here (nor is there one for a --user "$(id -u):$(id -g)" user).
# TrimNativeHeapInterval: the JVM hands the C heap its warm-up freed back every 5 s (some 20 MB that
# glibc keeps otherwise, counted against the container's memory limit; docs/operations.md#memory).
# Set before the training below, so the cache is made with the flags the server runs with.
ENV PORT=8080
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:TrimNativeHeapInterval=5000 -XX:+ExitOnOutOfMemoryError -Duser.home=/tmp"
# the start-up cache, trained on the quickstart with this image's JVM (it holds the JDK's, Vert.x's
# and the server's classes, which every project uses); the training's database and caches go
RUN java --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -jar /app/hyperterse.jar \
      aot-cache /app/tools-examples/quickstart -o /app/hyperterse.aot --call 'get-customer={"customer_id":1}' \
      -J--enable-native-access=ALL-UNNAMED -J--sun-misc-unsafe-memory-access=allow \
 && rm -rf /app/tools-examples/quickstart/data /tmp/.cache
# SQLite example databases are created next to their projects on first start
RUN chown -R hyperterse:hyperterse /app/tools-examples
USER 10001:10001
# 8080: MCP and /heartbeat; 5701: cluster membership (start --cluster)
EXPOSE 8080 5701
HEALTHCHECK --interval=10s --timeout=3s --start-period=40s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-8080} && printf 'GET /heartbeat HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && grep -q '\"success\":true' <&3"]
# java -XX:AOTCache=/app/hyperterse.aot -jar /app/hyperterse.jar ARGS (graal: the compiler's flags instead)
ENTRYPOINT ["/app/entrypoint.sh"]
CMD ["start", "/app/tools-examples/quickstart", "--host", "0.0.0.0"]
