import FieldhouseKit
import Testing

@Suite("Numbers typed into forms")
struct NumberInputTests {
    @Test func eitherDecimalMarkReadsTheSame() {
        #expect(NumberInput.read("8,5") == .value(8.5))
        #expect(NumberInput.read("8.5") == .value(8.5))
        #expect(NumberInput.read(" 42 ") == .value(42))
        #expect(NumberInput.read("-12,5") == .value(-12.5))
        #expect(NumberInput.read("−0,25") == .value(-0.25), "the typographic minus")
        #expect(NumberInput.read(",5") == .value(0.5))
        #expect(NumberInput.read("5.") == .value(5))
        guard case .value(let zero) = NumberInput.read("-0") else { Issue.record("-0 is a number"); return }
        #expect(zero.sign == .plus, "no negative zero to print as -0.00 km")
    }

    @Test func blanksAndNonsenseAreToldApart() {
        #expect(NumberInput.read(nil) == .blank)
        #expect(NumberInput.read("   ") == .blank)
        for text in ["abc", "8.5km", "1e3", "nan", "inf", "0x10", "--1", "1-", ".", "-", "+", "1 000", String(repeating: "9", count: 400)] {
            #expect(NumberInput.read(text) == .invalid(ambiguous: false), "\(text)")
        }
    }

    @Test func numbersWithTwoMarksAreAmbiguous() {
        for text in ["1,234.5", "1.234,5", "12,000,000", "1.2.3"] {
            #expect(NumberInput.read(text) == .invalid(ambiguous: true), "\(text)")
        }
    }
}
