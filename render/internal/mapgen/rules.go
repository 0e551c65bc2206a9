package main

// The classic board's territories are groups of countries; eight large
// countries are split by longitude/latitude rules. Islands (every ring but a
// country's largest) are assigned whole, by their centroid, so that no island
// is cut and stray contacts stay predictable.

// rules assigns countries and their parts to territories. It is made once
// by newRules and only read.
type rules struct {
	// whole maps countries that belong to one territory entirely.
	whole map[string]string
	// dropped are countries (small or remote) that are not on the board.
	dropped map[string]bool
}

func newRules() *rules {
	return &rules{whole: map[string]string{
		// North America
		"Greenland": "Greenland", "Mexico": "Central America", "Guatemala": "Central America",
		"Belize": "Central America", "Honduras": "Central America", "El Salvador": "Central America",
		"Nicaragua": "Central America", "Costa Rica": "Central America", "Panama": "Central America",
		"Cuba": "Central America", "Bahamas": "Central America", "Jamaica": "Central America",
		"Haiti": "Central America", "Dominican Rep.": "Central America", "Puerto Rico": "Central America",
		"Turks and Caicos Is.": "Central America", "Cayman Is.": "Central America",
		// South America
		"Venezuela": "Venezuela", "Colombia": "Venezuela", "Guyana": "Venezuela", "Suriname": "Venezuela",
		"Trinidad and Tobago": "Venezuela", "Peru": "Peru", "Bolivia": "Peru", "Brazil": "Brazil",
		"Argentina": "Argentina", "Chile": "Argentina", "Uruguay": "Argentina", "Paraguay": "Argentina",
		"Falkland Is.": "Argentina",
		// Europe
		"Iceland": "Iceland", "Sweden": "Scandinavia", "Finland": "Scandinavia", "Åland": "Scandinavia",
		"United Kingdom": "Great Britain", "Ireland": "Great Britain", "Isle of Man": "Great Britain",
		"Guernsey": "Great Britain", "Jersey": "Great Britain",
		"Germany": "Northern Europe", "Poland": "Northern Europe", "Denmark": "Northern Europe",
		"Belgium": "Northern Europe", "Luxembourg": "Northern Europe", "Czechia": "Northern Europe",
		"Slovakia": "Northern Europe", "Austria": "Northern Europe", "Switzerland": "Northern Europe",
		"Liechtenstein": "Northern Europe",
		"Andorra":       "Western Europe", "Monaco": "Western Europe",
		"Italy": "Southern Europe", "San Marino": "Southern Europe", "Vatican": "Southern Europe",
		"Malta": "Southern Europe", "Slovenia": "Southern Europe", "Croatia": "Southern Europe",
		"Bosnia and Herz.": "Southern Europe", "Serbia": "Southern Europe", "Montenegro": "Southern Europe",
		"Kosovo": "Southern Europe", "Albania": "Southern Europe", "Macedonia": "Southern Europe",
		"Greece": "Southern Europe", "Bulgaria": "Southern Europe", "Romania": "Southern Europe",
		"Hungary": "Southern Europe",
		"Ukraine": "Ukraine", "Belarus": "Ukraine", "Moldova": "Ukraine", "Lithuania": "Ukraine",
		"Latvia": "Ukraine", "Estonia": "Ukraine",
		// Africa
		"Morocco": "North Africa", "W. Sahara": "North Africa", "Algeria": "North Africa",
		"Tunisia": "North Africa", "Mauritania": "North Africa", "Mali": "North Africa",
		"Niger": "North Africa", "Chad": "North Africa", "Senegal": "North Africa", "Gambia": "North Africa",
		"Guinea-Bissau": "North Africa", "Guinea": "North Africa", "Sierra Leone": "North Africa",
		"Liberia": "North Africa", "Côte d'Ivoire": "North Africa", "Burkina Faso": "North Africa",
		"Ghana": "North Africa", "Togo": "North Africa", "Benin": "North Africa", "Nigeria": "North Africa",
		"Cabo Verde": "North Africa",
		"Egypt":      "Egypt", "Libya": "Egypt",
		"Sudan": "East Africa", "S. Sudan": "East Africa", "Ethiopia": "East Africa", "Eritrea": "East Africa",
		"Djibouti": "East Africa", "Somalia": "East Africa", "Somaliland": "East Africa", "Kenya": "East Africa",
		"Uganda": "East Africa", "Rwanda": "East Africa", "Burundi": "East Africa", "Tanzania": "East Africa",
		"Dem. Rep. Congo": "Congo", "Congo": "Congo", "Gabon": "Congo", "Eq. Guinea": "Congo",
		"Central African Rep.": "Congo", "Cameroon": "Congo", "Angola": "Congo", "São Tomé and Principe": "Congo",
		"South Africa": "South Africa", "Namibia": "South Africa", "Botswana": "South Africa",
		"Zimbabwe": "South Africa", "Zambia": "South Africa", "Malawi": "South Africa",
		"Mozambique": "South Africa", "Lesotho": "South Africa", "eSwatini": "South Africa",
		"Madagascar": "Madagascar", "Comoros": "Madagascar", "Mauritius": "Madagascar",
		// Asia
		"Mongolia": "Mongolia", "North Korea": "Mongolia", "South Korea": "Mongolia",
		"Japan":       "Japan",
		"Afghanistan": "Afghanistan", "Tajikistan": "Afghanistan", "Kyrgyzstan": "Afghanistan",
		"Uzbekistan": "Afghanistan", "Turkmenistan": "Afghanistan",
		"Turkey": "Middle East", "Cyprus": "Middle East", "N. Cyprus": "Middle East", "Syria": "Middle East",
		"Lebanon": "Middle East", "Israel": "Middle East", "Palestine": "Middle East", "Jordan": "Middle East",
		"Iraq": "Middle East", "Iran": "Middle East", "Saudi Arabia": "Middle East", "Kuwait": "Middle East",
		"Bahrain": "Middle East", "Qatar": "Middle East", "United Arab Emirates": "Middle East",
		"Oman": "Middle East", "Yemen": "Middle East", "Georgia": "Middle East", "Armenia": "Middle East",
		"Azerbaijan": "Middle East",
		"India":      "India", "Pakistan": "India", "Nepal": "India", "Bhutan": "India", "Bangladesh": "India",
		"Sri Lanka": "India", "Siachen Glacier": "India",
		"Myanmar": "Siam", "Thailand": "Siam", "Laos": "Siam", "Cambodia": "Siam", "Vietnam": "Siam",
		"Singapore": "Siam",
		"Hong Kong": "China", "Macao": "China", "Taiwan": "China",
		// Australia
		"Brunei": "Indonesia", "Timor-Leste": "Indonesia", "Philippines": "Indonesia",
		"Papua New Guinea": "New Guinea", "Solomon Is.": "New Guinea",
		"New Zealand": "Eastern Australia",
	}, dropped: map[string]bool{
		"American Samoa": true, "Anguilla": true, "Antigua and Barb.": true, "Aruba": true,
		"Ashmore and Cartier Is.": true, "Barbados": true, "Bermuda": true, "Br. Indian Ocean Ter.": true,
		"British Virgin Is.": true, "Cook Is.": true, "Curaçao": true, "Dominica": true, "Faeroe Is.": true,
		"Fiji": true, "Fr. Polynesia": true, "Grenada": true, "Guam": true, "Indian Ocean Ter.": true,
		"Kiribati": true, "Maldives": true, "Marshall Is.": true, "Micronesia": true, "Montserrat": true,
		"N. Mariana Is.": true, "Nauru": true, "New Caledonia": true, "Niue": true, "Norfolk Island": true,
		"Palau": true, "Pitcairn Is.": true, "Saint Helena": true, "Saint Lucia": true, "Samoa": true,
		"Seychelles": true, "Sint Maarten": true, "St-Barthélemy": true, "St-Martin": true,
		"St. Kitts and Nevis": true, "St. Pierre and Miquelon": true, "St. Vin. and Gren.": true,
		"Tonga": true, "U.S. Virgin Is.": true, "Vanuatu": true, "Wallis and Futuna Is.": true,
	}}
}

// assign returns the territory of a point of a country (longitude in the
// board's window), "" to leave it off the board, and false for a country the
// rules do not know.
func (rs *rules) assign(name string, lon, lat float64) (string, bool) {
	if t, ok := rs.whole[name]; ok {
		return t, true
	}
	if rs.dropped[name] {
		return "", true
	}
	switch name {
	case "United States of America":
		switch {
		case lon > 170 || (lat < 30 && lon < -140):
			return "", true // western Aleutians, Hawaii
		case lat > 50 && lon < -129:
			return "Alaska", true
		case lon < -100:
			return "Western United States", true
		}
		return "Eastern United States", true
	case "Canada":
		switch {
		case lat < 60 && lon < -110:
			return "Alberta", true
		case lat < 60 && lon < -79.5:
			return "Ontario", true
		case lon >= -79.5 && lat < 62.8:
			return "Quebec", true
		case lat > 73.5 || lon < -95:
			return "Northwest Territory", true
		}
		return "Ontario", true
	case "Russia":
		switch {
		case lat > 69 && lon > 40 && lon < 75:
			return "Ural", true
		case lon < 57:
			return "Ukraine", true
		case lon < 75:
			return "Ural", true
		case lon < 100 || (lat > 71 && lon < 115):
			return "Siberia", true
		case lon < 125 && lat < 57:
			return "Irkutsk", true
		case lon < 140 && lat >= 57:
			return "Yakutsk", true
		}
		return "Kamchatka", true
	case "Kazakhstan":
		if lon >= 57 && lat > 47.5 {
			return "Ural", true
		}
		return "Afghanistan", true
	case "China":
		if lat > 41 && lon > 112 {
			return "Mongolia", true
		}
		return "China", true
	case "Malaysia":
		if lon < 105 {
			return "Siam", true
		}
		return "Indonesia", true
	case "Indonesia":
		if lon >= 130.9 {
			return "New Guinea", true
		}
		return "Indonesia", true
	case "Australia":
		if lon < 133 {
			return "Western Australia", true
		}
		return "Eastern Australia", true
	case "France":
		switch {
		case lat > 40 && lon > -6 && lon < 11:
			return "Western Europe", true
		case lat > 0 && lat < 8 && lon < -50 && lon > -56:
			return "Venezuela", true // French Guiana
		}
		return "", true
	case "Spain":
		if lat < 35.95 {
			return "North Africa", true // Canary Islands
		}
		return "Western Europe", true
	case "Portugal":
		if lon < -10 {
			return "", true // Azores, Madeira
		}
		return "Western Europe", true
	case "Norway":
		if lat < 0 {
			return "", true
		}
		return "Scandinavia", true
	case "Netherlands":
		if lat < 45 {
			return "", true
		}
		return "Northern Europe", true
	case "Ecuador":
		if lon < -85 {
			return "", true // Galápagos
		}
		return "Peru", true
	}
	return "", false
}
