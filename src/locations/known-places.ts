// Well-known UAE communities and the ways people spell them, for "did you mean" when a lookup finds nothing.
// Names as the property service spells them; each is looked up (and cached) before it is offered, so a name the
// service does not know is never a button.

export interface KnownPlace {
  readonly name: string;
  /** Other spellings people type, lower case: short forms, common misspellings. */
  readonly spellings: readonly string[];
}

const place = (name: string, ...spellings: string[]): KnownPlace => ({ name, spellings });

export const KNOWN_PLACES: readonly KnownPlace[] = [
  place('Dubai Marina', 'marina', 'marnia', 'marinna', 'dubai mariana', 'dubia marina'),
  place('Downtown Dubai', 'downtown', 'down town', 'dowtown', 'downton'),
  place('Business Bay', 'busines bay', 'bussiness bay', 'buisness bay', 'business bey'),
  place('Palm Jumeirah', 'the palm', 'palm jumeira', 'palm jumeriah', 'palm jumairah', 'plam jumeirah'),
  place('Dubai Hills Estate', 'dubai hills', 'dubai hill', 'dubai hils'),
  place('Jumeirah Village Circle', 'jvc', 'jumeirah village', 'jumeira village circle', 'jumierah village circle'),
  place('Jumeirah Village Triangle', 'jvt', 'jumeira village triangle'),
  place('Jumeirah Lake Towers', 'jlt', 'jumeirah lakes towers', 'jumeira lake towers', 'lake towers'),
  place('Jumeirah Beach Residence', 'jbr', 'jumeirah beach residences', 'jumeira beach residence'),
  place('Arabian Ranches', 'ranches', 'arabian ranch', 'arabian ranchs', 'arabain ranches'),
  place('Dubai Silicon Oasis', 'dso', 'silicon oasis', 'silicone oasis'),
  place('DIFC', 'dubai international financial centre', 'financial centre', 'financial center'),
  place('Dubai Creek Harbour', 'creek harbour', 'creek harbor', 'dubai creek harbor'),
  place('Al Barsha', 'barsha', 'al barsa', 'albarsha'),
  place('Al Quoz', 'quoz', 'al qouz', 'alquoz'),
  place('Deira', 'diera', 'dera'),
  place('Bur Dubai', 'burdubai', 'bur dubay'),
  place('Al Furjan', 'furjan', 'al furjaan'),
  place('Discovery Gardens', 'discovery garden', 'discovry gardens'),
  place('The Springs', 'springs', 'the spring'),
  place('The Meadows', 'meadows', 'the meadow'),
  place('The Greens', 'greens'),
  place('Emirates Hills', 'emirate hills', 'emirates hill'),
  place('Motor City', 'motorcity'),
  place('Dubai Sports City', 'dsc', 'sports city', 'sport city'),
  place('International City', 'intl city', 'international cty'),
  place('Mirdif', 'mirdiff', 'mirdif hills'),
  place('Town Square', 'townsquare', 'town sq'),
  place('Damac Hills', 'akoya', 'damac hill'),
  place('Mohammed Bin Rashid City', 'mbr city', 'meydan', 'mohammad bin rashid city'),
  place('Dubai South', 'dubai south city'),
  place('Al Reem Island', 'reem island', 'al reem', 'reem'),
  place('Saadiyat Island', 'saadiyat', 'saadiat island', 'sadiyat island'),
  place('Yas Island', 'yas', 'yaas island'),
  place('Al Raha Beach', 'raha beach', 'al raha'),
  place('Khalifa City', 'khalifa city a', 'khalifa cty'),
  place('Al Reef', 'reef'),
  place('Al Majaz', 'majaz'),
  place('Aljada', 'al jada', 'aljadah'),
  place('Al Marjan Island', 'marjan island', 'al marjan'),
  place('Al Hamra Village', 'al hamra', 'hamra village'),
  // Names whose words sit close to filter words ("park" and "port" to "part", "bateen" to "between").
  place('Jumeirah Park', 'jumeira park', 'jumeirah prk'),
  place('Jumeirah Golf Estates', 'jge', 'jumeirah golf', 'jumeira golf estates'),
  place('Port de La Mer', 'la mer', 'port de lamer'),
  place('Al Bateen', 'bateen', 'al batin'),
];
