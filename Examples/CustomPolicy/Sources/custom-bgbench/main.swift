import BGBenchCLI
import WiFiOrChargingPolicy
BGBenchCLI.main(registry: .standard.adding(WiFiOrChargingRefresher.registration))
